import { withoutFsync, type Db } from './database.js';
import { immediateTransaction } from './transactions.js';

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  body: string;
  createdAt: string;
  /** Until when a repeat is replayed; after it the key is forgotten. */
  expiresAt: string;
  /** For a key of a store's sync worker (`sync-…-<entry>`): that worker, and the entry the key was sent for. */
  sentBy?: { sender: string; entrySeq: number } | undefined;
}

interface RawRecord {
  fingerprint: string;
  status: number;
  body: string;
  created_at: string;
  expires_at: string;
}

/** Where a store PC's sync keys are kept: for every write key of the organization, and for no other key. */
export const SYNC_SCOPE = 'sync';

export function createIdempotencyKeyStore(db: Db) {
  // Answers kept before keys were told apart (api_key_id '') still count for every key of their organization.
  const get = db.prepare<[string, string, string], RawRecord>(
    `SELECT fingerprint, status, body, created_at, expires_at FROM idempotency_keys
      WHERE org_id = ? AND api_key_id IN (?, '') AND key = ? ORDER BY api_key_id DESC LIMIT 1`,
  );
  // Far enough that no expiry check ever reaches it.
  const keptCreation = db.prepare<[string, string], RawRecord>(
    "SELECT fingerprint, status, body, '' AS created_at, '9999-12-31T23:59:59.999Z' AS expires_at FROM sync_creations WHERE org_id = ? AND key = ?",
  );
  const save = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (org_id, api_key_id, key, fingerprint, status, body, created_at, expires_at, sender, entry_seq)
     VALUES (@orgId, @apiKeyId, @key, @fingerprint, @status, @body, @createdAt, @expiresAt, @sender, @entrySeq)`,
  );
  const forget = db.prepare("DELETE FROM idempotency_keys WHERE org_id = ? AND api_key_id IN (?, '') AND key = ?");
  const acknowledge = db.prepare(
    `INSERT INTO idempotency_senders (org_id, sender, acknowledged_below) VALUES (?, ?, ?)
     ON CONFLICT (org_id, sender) DO UPDATE SET acknowledged_below = max(acknowledged_below, excluded.acknowledged_below)`,
  );

  return {
    /**
     * The answer kept for `key` as sent with the API key `apiKeyId`; after it went, a store's creation
     * (sent in the sync workers' shared scope) is still answered from `sync_creations`, for good.
     */
    get(orgId: string, apiKeyId: string, key: string): IdempotencyRecord | undefined {
      const row = get.get(orgId, apiKeyId, key) ?? (apiKeyId === SYNC_SCOPE ? keptCreation.get(orgId, key) : undefined);
      return row && { fingerprint: row.fingerprint, status: row.status, body: row.body, createdAt: row.created_at, expiresAt: row.expires_at };
    },
    /**
     * Runs a request's writes in one IMMEDIATE transaction, so that the answer
     * kept for its key (saved inside `write`) commits with them: a crash leaves
     * both or neither, never a write whose repeat would run again.
     */
    inOneCommit<T>(write: () => T): T {
      return immediateTransaction(db, write);
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
    save(orgId: string, apiKeyId: string, key: string, record: IdempotencyRecord): void {
      const run = () =>
        save.run({
          orgId,
          apiKeyId,
          key,
          fingerprint: record.fingerprint,
          status: record.status,
          body: record.body,
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          sender: record.sentBy?.sender ?? null,
          entrySeq: record.sentBy?.entrySeq ?? null,
        });
      // Switching synchronous inside a transaction would take the fsync from the write's commit too.
      if (db.inTransaction) run();
      else withoutFsync(db, run);
    },
    forget(orgId: string, apiKeyId: string, key: string): void {
      forget.run(orgId, apiKeyId, key);
    },
    /**
     * A store's sync worker will never send again a key of an entry below
     * `below`: its answers may go at the next purge. Bookkeeping a later
     * request repeats, so it needs no fsync of its own.
     */
    acknowledge(orgId: string, sender: string, below: number): void {
      const run = () => acknowledge.run(orgId, sender, below);
      if (db.inTransaction) run();
      else withoutFsync(db, run);
    },
  };
}

export type IdempotencyKeyStore = ReturnType<typeof createIdempotencyKeyStore>;
