import type { Db } from './database.js';

export interface IdempotencyRecord {
  fingerprint: string;
  /** Undefined while the first request with the key is still running. */
  status: number | undefined;
  body: string | undefined;
  createdAt: string;
}

interface RawRecord {
  fingerprint: string;
  status: number | null;
  body: string | null;
  created_at: string;
}

export function createIdempotencyKeyStore(db: Db) {
  const get = db.prepare<[string, string], RawRecord>(
    'SELECT fingerprint, status, body, created_at FROM idempotency_keys WHERE org_id = ? AND key = ?',
  );
  const claim = db.prepare('INSERT OR IGNORE INTO idempotency_keys (org_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)');
  const complete = db.prepare('UPDATE idempotency_keys SET status = ?, body = ? WHERE org_id = ? AND key = ?');
  const release = db.prepare('DELETE FROM idempotency_keys WHERE org_id = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const unfinished = db.prepare('DELETE FROM idempotency_keys WHERE status IS NULL');

  return {
    get(orgId: string, key: string): IdempotencyRecord | undefined {
      const row = get.get(orgId, key);
      return row && { fingerprint: row.fingerprint, status: row.status ?? undefined, body: row.body ?? undefined, createdAt: row.created_at };
    },
    /** Marks the key as taken by a running request; false when it already was. */
    claim(orgId: string, key: string, fingerprint: string, now: string): boolean {
      return claim.run(orgId, key, fingerprint, now).changes === 1;
    },
    complete(orgId: string, key: string, status: number, body: string): void {
      complete.run(status, body, orgId, key);
    },
    release(orgId: string, key: string): void {
      release.run(orgId, key);
    },
    /** Forgets answers first given before `cutoff`. */
    purgeBefore(cutoff: string): void {
      purge.run(cutoff);
    },
    /**
     * Forgets keys of requests a previous process was running when it stopped:
     * nothing can complete them any more, and a retry must not get 409 for a day.
     */
    releaseUnfinished(): void {
      unfinished.run();
    },
  };
}

export type IdempotencyKeyStore = ReturnType<typeof createIdempotencyKeyStore>;
