import type { CatalogColumnMap } from '../../shared/api/catalog.js';
import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** Per organization, the mapping of its spreadsheets' own headers to product fields (see migration 41). */
export function createCatalogColumnStore(db: Db) {
  const read = db.prepare<[string], string>('SELECT columns FROM catalog_column_maps WHERE org_id = ?').pluck();
  const write = db.prepare<[string, string, string]>(
    'INSERT INTO catalog_column_maps (org_id, columns, updated_at) VALUES (?, ?, ?) ON CONFLICT (org_id) DO UPDATE SET columns = excluded.columns, updated_at = excluded.updated_at',
  );
  return {
    /** The kept mapping; empty when none was kept. */
    get(orgId: string): CatalogColumnMap {
      const json = read.get(orgId);
      return json === undefined ? {} : (JSON.parse(json) as CatalogColumnMap);
    },
    /** Replaces the kept mapping. */
    set(orgId: string, columns: CatalogColumnMap, now: string): void {
      immediateTransaction(db, () => write.run(orgId, JSON.stringify(columns), now));
    },
  };
}

export type CatalogColumnStore = ReturnType<typeof createCatalogColumnStore>;
