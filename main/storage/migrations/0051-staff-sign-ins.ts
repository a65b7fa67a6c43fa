import type { Migration } from './index.js';

/**
 * The staff page's sign-ins: a random token the browser holds in a cookie,
 * stored as its hash only (as keys are), tied to the key that opened it.
 * Ended by its expiry, by sign-out, or at once when that key is revoked
 * (every request joins the key's `active`).
 */
export const staffSignIns: Migration = {
  version: 51,
  name: 'staff-sign-ins',
  sql: `
CREATE TABLE staff_sign_ins (
  token_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);
CREATE INDEX staff_sign_ins_by_expiry ON staff_sign_ins (expires_at);
`,
};
