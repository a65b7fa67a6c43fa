import type { Migration } from './index.js';

/**
 * Receipt printers staff register per store: print endpoints name one by id,
 * so no caller chooses the host and port the server connects to. Removed
 * printers stay as rows (deleted = 1) so an old print's id still names one.
 */
export const printers: Migration = {
  version: 19,
  name: 'printers',
  sql: `
CREATE TABLE printers (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL REFERENCES stores(id),
  name TEXT NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX printers_org_store ON printers (org_id, store);
`,
};
