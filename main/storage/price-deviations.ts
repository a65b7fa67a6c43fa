import type { Db } from './database.js';

/** A line a kiosk key recorded at its own price, next to the catalog's price for the same quantity. */
export interface PriceDeviation {
  /** The order's `id`. */
  orderId: string;
  productId: string;
  title: string;
  quantity: number;
  price: number;
  catalogPrice: number;
}

interface Row {
  order_id: string;
  product_id: string;
  title: string;
  quantity: number;
  price: number;
  catalog_price: number;
}

export function createPriceDeviationStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO order_price_deviations (org_id, order_id, line, store, order_date, product_id, title, quantity, price, catalog_price)
     VALUES (@orgId, @orderId, @line, @store, @orderDate, @productId, @title, @quantity, @price, @catalogPrice)`,
  );
  const forDay = db.prepare<[string, string, string, string], Row>(
    `SELECT d.order_id, d.product_id, d.title, d.quantity, d.price, d.catalog_price
       FROM order_price_deviations d JOIN orders o ON o.id = d.order_id
      WHERE d.org_id = ? AND d.store = ? AND d.order_date >= ? AND d.order_date < ? AND o.deleted = 0
      ORDER BY d.order_date, d.order_id, d.line`,
  );

  return {
    /** Call inside the transaction that stores the order. */
    insert(row: PriceDeviation & { orgId: string; line: number; store: string; orderDate: string }): void {
      insert.run(row);
    },
    /** Deviations of the store's orders (not deleted) with orderDate in [start, end). */
    forDay(orgId: string, store: string, start: string, end: string): PriceDeviation[] {
      return forDay.all(orgId, store, start, end).map((r) => ({
        orderId: r.order_id,
        productId: r.product_id,
        title: r.title,
        quantity: r.quantity,
        price: r.price,
        catalogPrice: r.catalog_price,
      }));
    },
  };
}

export type PriceDeviationStore = ReturnType<typeof createPriceDeviationStore>;
