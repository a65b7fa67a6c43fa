import type { Category } from '../../shared/api/categories.js';
import type { Product } from '../../shared/api/products.js';
import type { ApiClient } from './api-client.js';

/** What the start screen offers without a scan: categories and the products marked `showOnScreen`. */
export interface ScreenCatalog {
  categories: Category[];
  byCategory: Map<string, Product[]>;
  /** Products to show that belong to no category shown on screen. */
  loose: Product[];
  supplierNames: Map<string, string>;
}

/** Read after the first screen is up: only the products marked `showOnScreen` and visible in the store. */
export async function loadScreenCatalog(api: ApiClient, storeId: string): Promise<ScreenCatalog> {
  const [categories, suppliers] = await Promise.all([api.categories(), api.suppliers()]);
  const shown: Product[] = [];
  let cursor: string | undefined;
  do {
    const page = await api.productPage(storeId, cursor);
    for (const p of page.data) if (!p.deactivated) shown.push(p);
    cursor = page.meta.nextCursor;
  } while (cursor);
  const byCategory = new Map<string, Product[]>();
  const loose: Product[] = [];
  const visible = categories.filter((c) => !c.deleted && c.showOnScreen !== false).sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  const visibleIds = new Set(visible.map((c) => c.id));
  for (const p of shown.sort((a, b) => (a.index ?? 0) - (b.index ?? 0))) {
    if (p.category !== undefined && visibleIds.has(p.category)) {
      const list = byCategory.get(p.category) ?? [];
      list.push(p);
      byCategory.set(p.category, list);
    } else loose.push(p);
  }
  return {
    categories: visible.filter((c) => byCategory.has(c.id)),
    byCategory,
    loose,
    supplierNames: new Map(suppliers.map((s) => [s.id, s.name])),
  };
}
