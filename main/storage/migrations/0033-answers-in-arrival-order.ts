import type { Migration } from './index.js';

/**
 * Kept answers were stored in key order (WITHOUT ROWID), so each new one,
 * a few hundred bytes, went into the middle of the table: a page split every
 * few answers, each moving pages around in SQLite's cache, after which the
 * commit walks the whole cache to drop the page number the move borrowed.
 * Stored by rowid, answers are appended at the table's end, and only the
 * small entries of the key's index land in the middle.
 */
export const answersInArrivalOrder: Migration = {
  version: 33,
  name: 'answers-in-arrival-order',
  sql: `
CREATE TABLE idempotency_keys_v33 (
  org_id TEXT NOT NULL,
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  sender TEXT,
  entry_seq INTEGER,
  PRIMARY KEY (org_id, api_key_id, key)
);
INSERT INTO idempotency_keys_v33 (org_id, api_key_id, key, fingerprint, status, body, created_at, expires_at, sender, entry_seq)
  SELECT org_id, api_key_id, key, fingerprint, status, body, created_at, expires_at, sender, entry_seq FROM idempotency_keys ORDER BY created_at;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v33 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_sender ON idempotency_keys (org_id, sender, entry_seq) WHERE sender IS NOT NULL;
`,
};
