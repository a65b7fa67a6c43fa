import type { Migration } from './index.js';

/**
 * Conditions a store's admin hears of. A row exists from the moment a
 * condition is seen; `alerted_at` is set once it lasted `ALERT_AFTER_MS`
 * (a row that ends before is dropped: it was no alert), `mailed` tells
 * whether its alert mail went out (at most one per condition and store an
 * hour), so the resolution mail follows exactly those.
 */
export const alerts: Migration = {
  version: 48,
  name: 'alerts',
  sql: `
CREATE TABLE alerts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  store TEXT NOT NULL,
  kind TEXT NOT NULL,
  detail TEXT NOT NULL,
  since TEXT NOT NULL,
  alerted_at TEXT,
  mailed INTEGER NOT NULL DEFAULT 0,
  ended_at TEXT
);
CREATE UNIQUE INDEX alerts_open ON alerts (org_id, store, kind) WHERE ended_at IS NULL;
CREATE INDEX alerts_recent ON alerts (org_id, alerted_at) WHERE alerted_at IS NOT NULL;
`,
};
