import type { Migration } from './index.js';

/**
 * Which organizations mirror an upstream. A row exists exactly while sync is
 * configured for that organization (`sync disable` deletes it); other modules,
 * such as the retention of personal data, rely on that.
 */
export const syncConfig: Migration = {
  version: 6,
  name: 'sync-config',
  sql: `
CREATE TABLE sync_config (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id),
  upstream_url TEXT NOT NULL,
  interval_seconds INTEGER NOT NULL DEFAULT 30,
  configured_at TEXT NOT NULL
);
`,
};
