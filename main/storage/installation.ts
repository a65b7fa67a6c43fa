import { randomBytes } from 'node:crypto';
import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** Why an installation got a new id. */
export type RenewalReason = 'restore' | 'copied-folder' | 'rolled-back';

export interface Installation {
  /** 32 hex digits, random: names this installation to the upstream and in its sync idempotency keys. */
  id: string;
  /** When this id was made. */
  since: string;
  reason: 'created' | RenewalReason;
}

/** The `installation` row: one per database, made by migration 24. */
export function createInstallationStore(db: Db) {
  const read = db.prepare<[], Installation>('SELECT id, since, reason FROM installation WHERE singleton = 1');
  const renew = db.prepare('UPDATE installation SET id = ?, since = ?, reason = ? WHERE singleton = 1');
  const highestSeq = db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'");
  // A sync round's lease in a copy names a process that worked on the original (or on the
  // database before a restore), whose id may since belong to a live process: it would keep
  // this copy's sync waiting for the lease to run out.
  const dropLeases = db.prepare('UPDATE sync_config SET lease_owner = NULL, lease_until = NULL WHERE lease_owner IS NOT NULL');
  return {
    get(): Installation {
      const row = read.get();
      if (!row) throw new Error('the database has no installation row; it was not migrated');
      return row;
    },
    /** A new random id from now on; entries already queued keep the id they were written under. Drops the copy's sync leases. */
    renew(reason: RenewalReason, now: Date): Installation {
      immediateTransaction(db, () => {
        renew.run(randomBytes(16).toString('hex'), now.toISOString(), reason);
        dropLeases.run();
      });
      return this.get();
    },
    /** The highest outbox sequence ever handed out (it never goes down unless the database is replaced by an older copy). */
    highestOutboxSeq(): number {
      return highestSeq.get()?.seq ?? 0;
    },
  };
}

export type InstallationStore = ReturnType<typeof createInstallationStore>;
