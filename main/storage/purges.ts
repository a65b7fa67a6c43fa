import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/**
 * The statements of the retention purges. Each deletes at most `limit` rows
 * in one transaction and returns how many it deleted, so that the caller can
 * give the event loop a turn between batches. Each reaches its rows through
 * an index on what makes them deletable (see migration 21), never by walking
 * the table.
 */

/** Soft-deletable tables: their outbox resources and the `sync_ids` kind of their rows. */
const SOFT_DELETED = {
  products: { resources: ['product', 'product-image'], kind: 'product' },
  categories: { resources: ['category'], kind: 'category' },
  suppliers: { resources: ['supplier'], kind: 'supplier' },
  stores: { resources: ['store'], kind: 'store' },
  blocked_identities: { resources: ['blocked-identity'], kind: 'blocked-identity' },
} as const;

export type SoftDeletedTable = keyof typeof SOFT_DELETED;
export const SOFT_DELETED_TABLES = Object.keys(SOFT_DELETED) as SoftDeletedTable[];

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** The SELECT of each purge, exported for the test that reads their query plans. */
export const PURGE_SELECTS = {
  pushedOutbox: "SELECT seq FROM outbox INDEXED BY outbox_pushed WHERE state = 'pushed' AND done_at < @cutoff ORDER BY done_at LIMIT @limit",
  // Oldest first by entry id; the caller deletes the prefix made before the cutoff, so a batch reads at most `limit` rows.
  hubUnsent: "SELECT seq, created_at AS createdAt FROM outbox WHERE org_id = @orgId AND state = 'pending' ORDER BY seq LIMIT @limit",
  // Organizations stores push to (a worker acknowledged entries, or a device reports) and that have no upstream of their own.
  hubs: `SELECT org_id FROM idempotency_senders UNION SELECT org_id FROM fleet_devices
     EXCEPT SELECT org_id FROM sync_config`,
  expiredAnswers: 'SELECT org_id, api_key_id, key FROM idempotency_keys WHERE expires_at < @now ORDER BY expires_at LIMIT @limit',
  acknowledgedAnswers:
    'SELECT org_id, api_key_id, key FROM idempotency_keys WHERE org_id = @orgId AND sender = @sender AND entry_seq < @below ORDER BY entry_seq LIMIT @limit',
  // While sync is configured, a record with a local change still queued (or parked) keeps its row: the push
  // and the pull's merge read it. Without an upstream nothing reads it; its queued entries stay.
  softDeleted: (table: SoftDeletedTable) =>
    `SELECT id, org_id, lastupdate FROM ${table} t WHERE deleted = 1 AND lastupdate < @cutoff
       AND NOT (EXISTS (SELECT 1 FROM sync_config s WHERE s.org_id = t.org_id)
                AND EXISTS (SELECT 1 FROM outbox o WHERE o.resource IN (${quoted(SOFT_DELETED[table].resources)}) AND o.resource_id = t.id
                            AND o.state IN ('pending', 'parked')))
     ORDER BY lastupdate LIMIT @limit`,
  // A sale that has not reached the upstream (pending, parked, or given up on) is the only copy: it stays.
  oldOrders: `SELECT id FROM orders o WHERE org_id = @orgId AND order_date < @cutoff
       AND NOT EXISTS (SELECT 1 FROM outbox x WHERE x.resource = 'order' AND x.resource_id = o.id AND x.state IN ('pending', 'parked', 'discarded'))
     ORDER BY order_date LIMIT @limit`,
};

/** The DELETE statements of the purges, each by primary key or by an index on what it deletes by. */
export const PURGE_DELETES = {
  pushedOutbox: `DELETE FROM outbox WHERE seq IN (${PURGE_SELECTS.pushedOutbox})`,
  hubUnsent: "DELETE FROM outbox WHERE org_id = @orgId AND state = 'pending' AND seq <= @through",
  expiredAnswers: `DELETE FROM idempotency_keys WHERE (org_id, api_key_id, key) IN (${PURGE_SELECTS.expiredAnswers})`,
  acknowledgedAnswers: `DELETE FROM idempotency_keys WHERE (org_id, api_key_id, key) IN (${PURGE_SELECTS.acknowledgedAnswers})`,
  // A store's creation outlives its kept answer (see migration 26): run before the DELETE of the same rows.
  keptCreations: (select: string) =>
    `INSERT OR IGNORE INTO sync_creations (org_id, key, fingerprint, status, body)
     SELECT org_id, key, fingerprint, status, body FROM idempotency_keys WHERE sender IS NOT NULL AND (org_id, api_key_id, key) IN (${select})`,
  row: (table: SoftDeletedTable | 'orders') => `DELETE FROM ${table} WHERE id = @id`,
  idMapping: 'DELETE FROM sync_ids WHERE org_id = @orgId AND kind = @kind AND local_id = @id',
  aliasCodes: 'DELETE FROM product_alias_codes WHERE product_id = @id',
  imageRecords: 'DELETE FROM product_images WHERE product_id = @id',
};

export function createPurgeStore(db: Db) {
  const pushedOutbox = db.prepare(PURGE_DELETES.pushedOutbox);
  const keepingCreations = (select: string, remove: string) => {
    const keep = db.prepare(PURGE_DELETES.keptCreations(select));
    const drop = db.prepare(remove);
    return db.transaction((params: Record<string, unknown>) => (keep.run(params), drop.run(params).changes)).immediate;
  };
  const expiredAnswers = keepingCreations(PURGE_SELECTS.expiredAnswers, PURGE_DELETES.expiredAnswers);
  const acknowledgedAnswers = keepingCreations(PURGE_SELECTS.acknowledgedAnswers, PURGE_DELETES.acknowledgedAnswers);
  const raiseHorizon = db.prepare(
    `INSERT INTO feed_horizons (org_id, purged_through) VALUES (?, ?)
     ON CONFLICT (org_id) DO UPDATE SET purged_through = max(purged_through, excluded.purged_through)`,
  );
  const senders = db.prepare<[], { orgId: string; sender: string; below: number }>(
    'SELECT org_id AS orgId, sender, acknowledged_below AS below FROM idempotency_senders',
  );
  const forgetId = db.prepare(PURGE_DELETES.idMapping);
  const softDeleted = new Map(
    SOFT_DELETED_TABLES.map((table) => [
      table,
      {
        select: db.prepare<{ cutoff: string; limit: number }, { id: string; org_id: string; lastupdate: string }>(PURGE_SELECTS.softDeleted(table)),
        remove: db.prepare(PURGE_DELETES.row(table)),
      },
    ]),
  );
  const productParts = [
    db.prepare(PURGE_DELETES.aliasCodes),
    // Their files go at the next start, with the other files no product names (removeOrphans).
    db.prepare(PURGE_DELETES.imageRecords),
  ];
  const hubs = db.prepare<[], string>(PURGE_SELECTS.hubs).pluck();
  const hubUnsent = db.prepare<{ orgId: string; limit: number }, { seq: number; createdAt: string }>(PURGE_SELECTS.hubUnsent);
  const removeHubUnsent = db.prepare(PURGE_DELETES.hubUnsent);
  const syncedOrgs = db.prepare<[], string>('SELECT org_id FROM sync_config ORDER BY org_id').pluck();
  const oldOrders = db.prepare<{ orgId: string; cutoff: string; limit: number }, string>(PURGE_SELECTS.oldOrders).pluck();
  const removeOrder = db.prepare(PURGE_DELETES.row('orders'));
  const setNext = db.prepare('INSERT INTO purge_schedule (id, next_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET next_at = excluded.next_at');
  const getNext = db.prepare<[], string>('SELECT next_at FROM purge_schedule WHERE id = 1').pluck();

  return {
    /** Outbox entries pushed before `cutoff`. */
    pushedOutbox(cutoff: string, limit: number): number {
      return pushedOutbox.run({ cutoff, limit }).changes;
    },
    /** Organizations that stores push to and that have no upstream: the top of a chain. */
    hubs(): string[] {
      return hubs.all();
    },
    /** A hub's own entries written before `cutoff`: nothing will ever push them. */
    hubUnsent(orgId: string, cutoff: string, limit: number): number {
      return immediateTransaction(db, () => {
        const rows = hubUnsent.all({ orgId, limit });
        const old = rows.findIndex((row) => row.createdAt >= cutoff);
        const count = old === -1 ? rows.length : old;
        if (count > 0) removeHubUnsent.run({ orgId, through: rows[count - 1]!.seq });
        return count;
      });
    },
    /** Kept `Idempotency-Key` answers whose time is up; a store's creations stay in `sync_creations`. */
    expiredAnswers(now: string, limit: number): number {
      return expiredAnswers({ now, limit });
    },
    /** Every store's sync worker that acknowledged entries, with the entry id below which it did. */
    senders(): { orgId: string; sender: string; below: number }[] {
      return senders.all();
    },
    /** Kept answers to a sync worker's keys of entries its store acknowledged; its creations stay in `sync_creations`. */
    acknowledgedAnswers(orgId: string, sender: string, below: number, limit: number): number {
      return acknowledgedAnswers({ orgId, sender, below, limit });
    },
    /**
     * Rows soft-deleted before `cutoff`, with their alias codes, image records
     * and id mappings. Each organization's feed horizon moves up to the newest
     * deletion purged: a change feed from before it would miss that deletion.
     */
    softDeleted(table: SoftDeletedTable, cutoff: string, limit: number): number {
      const statements = softDeleted.get(table);
      if (!statements) return 0;
      return immediateTransaction(db, () => {
        const rows = statements.select.all({ cutoff, limit });
        for (const row of rows) {
          if (table === 'products') for (const part of productParts) part.run({ id: row.id });
          statements.remove.run({ id: row.id });
          forgetId.run({ orgId: row.org_id, kind: SOFT_DELETED[table].kind, id: row.id });
          raiseHorizon.run(row.org_id, row.lastupdate);
        }
        return rows.length;
      });
    },
    /** Organizations with an upstream: they may let old orders go, since the upstream keeps them. */
    syncedOrganizations(): string[] {
      return syncedOrgs.all();
    },
    /** Orders of a synced organization sold before `cutoff` that reached the upstream, with their id mappings. */
    oldOrders(orgId: string, cutoff: string, limit: number): number {
      return immediateTransaction(db, () => {
        const ids = oldOrders.all({ orgId, cutoff, limit });
        for (const id of ids) {
          removeOrder.run({ id });
          forgetId.run({ orgId, kind: 'order', id });
        }
        return ids.length;
      });
    },
    /** When the server that runs the purges plans the next one. */
    setNextPurgeAt(at: string): void {
      setNext.run(at);
    },
    nextPurgeAt(): string | undefined {
      return getNext.get();
    },
    /** Size of the database file in bytes (pages in use and free). */
    databaseBytes(): number {
      return (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    },
  };
}

export type PurgeStore = ReturnType<typeof createPurgeStore>;
