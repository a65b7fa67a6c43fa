import type { Migration } from './index.js';

/**
 * First answers to POSTs that carried an `Idempotency-Key`, per organization.
 * Requests still running are tracked in the server's memory: they end with the
 * process, so they have no row.
 */
export const idempotencyKeys: Migration = {
  version: 8,
  name: 'idempotency-keys',
  sql: `
CREATE TABLE idempotency_keys (
  org_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (org_id, key)
) WITHOUT ROWID;

CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
`,
};
