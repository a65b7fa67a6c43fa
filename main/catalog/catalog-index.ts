import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Category } from '../../shared/api/categories.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import { normalizeCode } from '../services/products.js';
import type { CategoryStore } from '../storage/categories.js';
import type { ProductRecord, ProductStore } from '../storage/products.js';
import type { SupplierStore } from '../storage/suppliers.js';
import type { Finding } from './file-problems.js';

/** Rows read per turn of the event loop while the index is built. */
const PAGE = 250;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

const nameKey = (name: string) => name.trim().toLocaleLowerCase('de-CH');

/** A reference cell resolved to an id, or why it cannot be. */
export type Resolved = { id: string } | { problem: Finding };

/**
 * Records a reference may name, by id (soft-deleted ones included: they
 * still exist, as everywhere else in the API) or by name (active ones only).
 */
class Referable<T extends { id: string; name: string; deleted?: boolean | undefined }> {
  private readonly byName = new Map<string, T[]>();
  constructor(
    private readonly what: 'category' | 'supplier',
    private readonly get: (id: string) => T | undefined,
    active: T[],
  ) {
    for (const record of active) push(this.byName, nameKey(record.name), record);
  }

  resolve(cell: string): Resolved {
    if (this.get(cell)) return { id: cell };
    const named = this.byName.get(nameKey(cell)) ?? [];
    if (named.length === 1) return { id: named[0]!.id };
    if (named.length > 1) return { problem: { kind: `${this.what}-ambiguous`, params: { value: cell, count: String(named.length) } } };
    return { problem: { kind: `${this.what}-unknown`, params: { value: cell } } };
  }

  /** The name when it names this record only, otherwise the id: what an export writes. */
  cellOf(id: string): string {
    const record = this.get(id);
    if (!record || record.deleted) return id;
    return this.byName.get(nameKey(record.name))?.length === 1 ? record.name : id;
  }
}

/**
 * What an import matches rows against and an export writes: the
 * organization's active products by `externalId` and by `barcode`, and its
 * categories and suppliers by id and by name. Built a page at a time, with a
 * turn of the event loop between pages.
 */
export async function buildCatalogIndex(deps: { products: ProductStore; categories: CategoryStore; suppliers: SupplierStore }, orgId: string) {
  const products = new Map<string, ProductRecord>();
  const byExternalId = new Map<string, string[]>();
  const byBarcode = new Map<string, string[]>();
  for (let afterId: string | undefined; ; ) {
    const page = deps.products.page({ orgId, afterId, limit: PAGE });
    for (const product of page) {
      products.set(product.id, product);
      if (product.externalId) push(byExternalId, product.externalId, product.id);
      push(byBarcode, normalizeCode(product.barcode), product.id);
    }
    if (page.length < PAGE) break;
    afterId = page.at(-1)!.id;
    await nextTurn();
  }
  const activeCategories: Category[] = [];
  for (let afterId: string | undefined; ; ) {
    const page = deps.categories.page({ orgId, afterId, limit: PAGE });
    activeCategories.push(...page);
    if (page.length < PAGE) break;
    afterId = page.at(-1)!.id;
  }
  const suppliers: Supplier[] = deps.suppliers.listActiveByName(orgId, Number.MAX_SAFE_INTEGER);
  const categoryById = new Map(activeCategories.map((category) => [category.id, category]));
  return {
    /** Active products in id order. */
    products,
    byExternalId: (externalId: string) => byExternalId.get(externalId) ?? [],
    byBarcode: (barcode: string) => byBarcode.get(barcode) ?? [],
    categories: new Referable('category', (id) => deps.categories.get(orgId, id), activeCategories),
    /** The category with this id, deleted ones included. */
    category: (id: string): Category | undefined => categoryById.get(id) ?? deps.categories.get(orgId, id),
    suppliers: new Referable('supplier', (id) => deps.suppliers.get(orgId, id), suppliers),
  };
}

export type CatalogIndex = Awaited<ReturnType<typeof buildCatalogIndex>>;
