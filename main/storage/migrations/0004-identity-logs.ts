import type { Migration } from './index.js';

/** Identity checks and blocked identities. */
export const identityLogs: Migration = {
  version: 4,
  name: 'identity-logs',
  sql: `
CREATE TABLE identity_logs (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  access INTEGER NOT NULL,
  log_date TEXT NOT NULL,
  log_type TEXT,
  app_version TEXT,
  store TEXT,
  source TEXT,
  user TEXT,
  birth_date TEXT,
  image_url TEXT,
  raw_text TEXT,
  createdate TEXT NOT NULL
);
-- GET /identity-logs: newest first within a time window; the other filters are checked on the rows of the range.
CREATE INDEX identity_logs_org_date ON identity_logs (org_id, log_date, id);

CREATE TABLE blocked_identities (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  date TEXT NOT NULL,
  comment TEXT NOT NULL,
  raw_mrz TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birth_date TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  lastupdate TEXT NOT NULL
);
CREATE INDEX blocked_identities_org_list ON blocked_identities (org_id, deleted, id);
`,
};
