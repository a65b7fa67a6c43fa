import type { StoreLists } from '../rules/store-filter.js';
import type { Db } from './database.js';
import type { ProductRecord } from './products.js';

/** The product fields the search index holds; the rest is read from `products` for the page served. */
export type IndexedProduct = Pick<
  ProductRecord,
  'id' | 'name' | 'description' | 'declarations' | 'barcode' | 'barcodeAliases' | 'externalId' | 'category'
>;

interface IndexedRow {
  id: string;
  name: string;
  description: string | null;
  declarations: string | null;
  barcode: string;
  barcode_aliases: string | null;
  external_id: string | null;
  category: string | null;
}

interface StoreListsRow {
  id: string;
  allow_store: string | null;
  hide_store: string | null;
}

function toIndexed(row: IndexedRow): IndexedProduct {
  const product: IndexedProduct = { id: row.id, name: row.name, barcode: row.barcode };
  if (row.description !== null) product.description = row.description;
  if (row.declarations !== null) product.declarations = row.declarations;
  if (row.barcode_aliases !== null) product.barcodeAliases = JSON.parse(row.barcode_aliases) as ProductRecord['barcodeAliases'];
  if (row.external_id !== null) product.externalId = row.external_id;
  if (row.category !== null) product.category = row.category;
  return product;
}

/** What the search index is built from: lean reads of active products and of category store lists. */
export function createSearchSourceStore(db: Db) {
  const chunk = db.prepare<[string, string, number], IndexedRow>(
    `SELECT id, name, description, declarations, barcode, barcode_aliases, external_id, category
       FROM products WHERE org_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ?`,
  );
  const storeLists = db.prepare<[string], StoreListsRow>(
    `SELECT id, allow_store, hide_store FROM categories
      WHERE org_id = ? AND (allow_store IS NOT NULL OR hide_store IS NOT NULL)`,
  );

  return {
    /** Up to `limit` active products of an organization with an id greater than `afterId`, in id order. */
    activeAfter(orgId: string, afterId: string, limit: number): IndexedProduct[] {
      return chunk.all(orgId, afterId, limit).map(toIndexed);
    },
    /**
     * Current store lists of the organization's categories that have any, read
     * at query time so a category change applies to the next search.
     */
    categoryStoreLists(orgId: string): Map<string, StoreLists> {
      const lists = new Map<string, StoreLists>();
      for (const row of storeLists.iterate(orgId)) {
        lists.set(row.id, {
          allowStore: row.allow_store === null ? undefined : (JSON.parse(row.allow_store) as string[]),
          hideStore: row.hide_store === null ? undefined : (JSON.parse(row.hide_store) as string[]),
        });
      }
      return lists;
    },
  };
}

export type SearchSourceStore = ReturnType<typeof createSearchSourceStore>;
