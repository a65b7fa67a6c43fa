import { withoutFsync, type Db } from './database.js';

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
}

interface RawRecord {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
}

export function createIdempotencyKeyStore(db: Db) {
  const get = db.prepare<[string, string], RawRecord>(
    'SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE org_id = ? AND key = ?',
  );
  const save = db.prepare(
    'INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const forget = db.prepare('DELETE FROM idempotency_keys WHERE org_id = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');

  return {
    get(orgId: string, key: string): IdempotencyRecord | undefined {
      const row = get.get(orgId, key);
      return row && { fingerprint: row.fingerprint, status: row.status, body: row.body, createdAt: row.created_at };
    },
    /**
     * Without an fsync of its own: the write it answers is already durable, and
     * the next write's commit carries this row to disk a moment later. Only a
     * crash in that moment, followed by a retry, would run the request again.
     */
    save(orgId: string, key: string, record: IdempotencyRecord): void {
      withoutFsync(db, () => save.run(orgId, key, record.fingerprint, record.status, record.body, record.createdAt));
    },
    forget(orgId: string, key: string): void {
      forget.run(orgId, key);
    },
    /** Forgets answers first given before `cutoff`. */
    purgeBefore(cutoff: string): void {
      purge.run(cutoff);
    },
  };
}

export type IdempotencyKeyStore = ReturnType<typeof createIdempotencyKeyStore>;
