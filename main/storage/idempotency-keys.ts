import { withoutFsync, type Db } from './database.js';

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
  /** Never purged: repeating the request after any length of time must replay it. */
  keptForGood: boolean;
}

interface RawRecord {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
  kept_for_good: number;
}

export function createIdempotencyKeyStore(db: Db) {
  const get = db.prepare<[string, string], RawRecord>(
    'SELECT fingerprint, status, body, created_at, kept_for_good FROM idempotency_keys WHERE org_id = ? AND key = ?',
  );
  const save = db.prepare(
    'INSERT OR REPLACE INTO idempotency_keys (org_id, key, fingerprint, status, body, created_at, kept_for_good) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const forget = db.prepare('DELETE FROM idempotency_keys WHERE org_id = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ? AND kept_for_good = 0');

  return {
    get(orgId: string, key: string): IdempotencyRecord | undefined {
      const row = get.get(orgId, key);
      return row && { fingerprint: row.fingerprint, status: row.status, body: row.body, createdAt: row.created_at, keptForGood: row.kept_for_good === 1 };
    },
    /**
     * Runs a request's writes in one IMMEDIATE transaction, so that the answer
     * kept for its key (saved inside `write`) commits with them: a crash leaves
     * both or neither, never a write whose repeat would run again.
     */
    inOneCommit<T>(write: () => T): T {
      return db.transaction(write).immediate();
    },
    /** Whether a group of writes (storage/group-commit.ts) is open, whose commit is still to come. */
    inGroup(): boolean {
      return db.inTransaction;
    },
    /**
     * Inside `inOneCommit` the answer rides on the write's own fsynced commit.
     * Outside it (an answer given after an upload finished, or to a request
     * that wrote nothing) it commits without an fsync of its own: losing it
     * lets a repeat run again, which makes no second record for such a request.
     */
    save(orgId: string, key: string, record: IdempotencyRecord): void {
      const run = () => save.run(orgId, key, record.fingerprint, record.status, record.body, record.createdAt, record.keptForGood ? 1 : 0);
      // Switching synchronous inside a transaction would take the fsync from the write's commit too.
      if (db.inTransaction) run();
      else withoutFsync(db, run);
    },
    forget(orgId: string, key: string): void {
      forget.run(orgId, key);
    },
    /** Forgets answers first given before `cutoff`, except those kept for good. */
    purgeBefore(cutoff: string): void {
      purge.run(cutoff);
    },
  };
}

export type IdempotencyKeyStore = ReturnType<typeof createIdempotencyKeyStore>;
