import type { Db } from './database.js';

/** The catalog tables a store PC's sync worker updates, each with the `lastupdate` its change feed walks. */
export type CatalogTable = 'products' | 'categories' | 'suppliers' | 'stores' | 'blocked_identities';

/** A record's current `lastupdate`, and which store PC's pushed change made it (table `sync_writers`). */
export function createSyncWriterStore(db: Db) {
  const lastupdates = new Map(
    (['products', 'categories', 'suppliers', 'stores', 'blocked_identities'] as const).map((table) => [
      table,
      db.prepare<[string, string], { lastupdate: string }>(`SELECT lastupdate FROM ${table} WHERE org_id = ? AND id = ?`),
    ]),
  );
  const writerOf = db.prepare<[string, string, string], { writer: string; lastupdate: string }>(
    'SELECT writer, lastupdate FROM sync_writers WHERE org_id = ? AND record_table = ? AND record_id = ?',
  );
  const put = db.prepare('INSERT OR REPLACE INTO sync_writers (org_id, record_table, record_id, writer, lastupdate) VALUES (?, ?, ?, ?, ?)');

  return {
    lastupdateOf(orgId: string, table: CatalogTable, id: string): string | undefined {
      return lastupdates.get(table)?.get(orgId, id)?.lastupdate;
    },
    /** Whether `writer` made the record's change stamped `lastupdate` (its current one). */
    wrote(orgId: string, table: CatalogTable, id: string, writer: string, lastupdate: string): boolean {
      const row = writerOf.get(orgId, table, id);
      return row?.writer === writer && row.lastupdate === lastupdate;
    },
    record(orgId: string, table: CatalogTable, id: string, writer: string, lastupdate: string): void {
      put.run(orgId, table, id, writer, lastupdate);
    },
  };
}

export type SyncWriterStore = ReturnType<typeof createSyncWriterStore>;
