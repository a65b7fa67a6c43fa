import type { Db } from './database.js';

/** What a store PC reports of its own sales: when the latest was sold, and for which stores it sells. */
export function createRecentSalesStore(db: Db) {
  const last = db.prepare<[string], { at: string | null }>('SELECT max(order_date) AS at FROM orders WHERE org_id = ?');
  const stores = db.prepare<[string, string], { store: string }>('SELECT DISTINCT store FROM orders WHERE org_id = ? AND order_date >= ? ORDER BY store');
  return {
    lastSaleAt(orgId: string): string | null {
      return last.get(orgId)?.at ?? null;
    },
    /** Local ids of the stores with a sale since `since`. */
    storesSince(orgId: string, since: string): string[] {
      return stores.all(orgId, since).map((row) => row.store);
    },
  };
}

export type RecentSalesStore = ReturnType<typeof createRecentSalesStore>;
