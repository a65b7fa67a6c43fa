import type { StoreLists } from '../rules/store-filter.js';
import type { Db } from './database.js';
import type { ProductRecord } from './products.js';

/** The product fields the search index holds; the rest is read from `products` for the page served. */
export type IndexedProduct = Pick<
  ProductRecord,
  'id' | 'name' | 'description' | 'declarations' | 'barcode' | 'barcodeAliases' | 'externalId' | 'category'
>;

/** A row of the columns the index reads, as an array: a start-up build reads every product, and arrays cost less to make than objects. */
type IndexedRow = [
  id: string,
  name: string,
  description: string | null,
  declarations: string | null,
  barcode: string,
  barcodeAliases: string | null,
  externalId: string | null,
  category: string | null,
];

interface StoreListsRow {
  id: string;
  allow_store: string | null;
  hide_store: string | null;
}

function toIndexed([id, name, description, declarations, barcode, barcodeAliases, externalId, category]: IndexedRow): IndexedProduct {
  const product: IndexedProduct = { id, name, barcode };
  if (description !== null) product.description = description;
  if (declarations !== null) product.declarations = declarations;
  if (barcodeAliases !== null) product.barcodeAliases = JSON.parse(barcodeAliases) as ProductRecord['barcodeAliases'];
  if (externalId !== null) product.externalId = externalId;
  if (category !== null) product.category = category;
  return product;
}

/** What the search index is built from: lean reads of active products and of category store lists. */
export function createSearchSourceStore(db: Db) {
  const chunk = db
    .prepare<[string, string, number], IndexedRow>(
      `SELECT id, name, description, declarations, barcode, barcode_aliases, external_id, category
         FROM products WHERE org_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ?`,
    )
    .raw(true);
  const changed = db
    .prepare<[string, string], [...IndexedRow, deleted: number, lastupdate: string]>(
      `SELECT id, name, description, declarations, barcode, barcode_aliases, external_id, category, deleted, lastupdate
         FROM products WHERE org_id = ? AND lastupdate > ? ORDER BY lastupdate`,
    )
    .raw(true);
  const latest = db.prepare<[string], string | null>('SELECT max(lastupdate) FROM products WHERE org_id = ?').pluck();
  const storeLists = db.prepare<[string], StoreListsRow>(
    `SELECT id, allow_store, hide_store FROM categories
      WHERE org_id = ? AND (allow_store IS NOT NULL OR hide_store IS NOT NULL)`,
  );

  return {
    /** Up to `limit` active products of an organization with an id greater than `afterId`, in id order. */
    activeAfter(orgId: string, afterId: string, limit: number): IndexedProduct[] {
      return chunk.all(orgId, afterId, limit).map(toIndexed);
    },
    /** The latest `lastupdate` of the organization's products, '' when it has none. */
    latestChange(orgId: string): string {
      return latest.get(orgId) ?? '';
    },
    /** Products of an organization changed after `since` (a `lastupdate`), deleted ones included, oldest change first. */
    changedAfter(orgId: string, since: string): { product: IndexedProduct; deleted: boolean; lastupdate: string }[] {
      return changed.all(orgId, since).map(([id, name, description, declarations, barcode, barcodeAliases, externalId, category, deleted, lastupdate]) => ({
        product: toIndexed([id, name, description, declarations, barcode, barcodeAliases, externalId, category]),
        deleted: deleted === 1,
        lastupdate,
      }));
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
