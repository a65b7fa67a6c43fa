import type { Migration } from './index.js';

/**
 * Rate windows per key (the identity verdicts' limit): kept in the file, so
 * that a restart does not give a prober a fresh window.
 */
export const rateWindows: Migration = {
  version: 38,
  name: 'rate-windows',
  sql: `
CREATE TABLE rate_windows (
  key_id TEXT NOT NULL,
  what TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key_id, what)
) WITHOUT ROWID;
`,
};
