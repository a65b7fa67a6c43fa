import type { LateSale, LineFlagReason, PriceDeviation } from '../../shared/api/reports.js';
import type { Db } from './database.js';

/** A flagged line as stored with its order: where and when it was sold and recorded. */
export type LineFlagRow = PriceDeviation & { orgId: string; line: number; store: string };

/** A late kiosk sale as stored with its order. */
export type LateSaleRow = LateSale & { orgId: string; store: string };

interface LineRow {
  order_id: string;
  product_id: string;
  title: string;
  quantity: number;
  price: number;
  catalog_price: number | null;
  tax_rate: number;
  catalog_tax_rate: number | null;
  deposit: number;
  catalog_deposit: number | null;
  reasons: string;
  order_date: string;
  recorded_at: string;
}

interface LateRow {
  order_id: string;
  order_date: string;
  recorded_at: string;
  price: number;
}

/**
 * What a kiosk key recorded that staff should look at: lines that differ from
 * the catalog, and sales recorded long after their order date. Both are
 * written in the transaction that stores the order.
 */
export function createSaleFlagStore(db: Db) {
  const insertLine = db.prepare(
    `INSERT INTO order_line_flags (org_id, order_id, line, store, order_date, recorded_at, product_id, title, quantity, price, catalog_price,
                                   tax_rate, catalog_tax_rate, deposit, catalog_deposit, reasons)
     VALUES (@orgId, @orderId, @line, @store, @orderDate, @recordedAt, @productId, @title, @quantity, @price, @catalogPrice,
             @taxRate, @catalogTaxRate, @deposit, @catalogDeposit, @reasons)`,
  );
  const insertLate = db.prepare(
    `INSERT INTO late_sales (order_id, org_id, store, order_date, recorded_at, price)
     VALUES (@orderId, @orgId, @store, @orderDate, @recordedAt, @total)`,
  );
  // A line belongs to the day it was sold and to the day it was recorded, so a sale dated back shows where staff look.
  const linesOfDay = db.prepare<{ orgId: string; store: string; start: string; end: string }, LineRow>(
    `SELECT f.* FROM order_line_flags f JOIN orders o ON o.id = f.order_id
      WHERE f.org_id = @orgId AND f.store = @store AND o.deleted = 0
        AND ((f.order_date >= @start AND f.order_date < @end) OR (f.recorded_at >= @start AND f.recorded_at < @end))
      ORDER BY f.order_date, f.order_id, f.line`,
  );
  const lateOfDay = db.prepare<{ orgId: string; store: string; start: string; end: string }, LateRow>(
    `SELECT l.order_id, l.order_date, l.recorded_at, l.price FROM late_sales l JOIN orders o ON o.id = l.order_id
      WHERE l.org_id = @orgId AND l.store = @store AND l.recorded_at >= @start AND l.recorded_at < @end AND o.deleted = 0
      ORDER BY l.recorded_at, l.order_id`,
  );

  return {
    /** Call inside the transaction that stores the order. */
    flagLine(row: LineFlagRow): void {
      insertLine.run({ ...row, reasons: row.reasons.join(',') });
    },
    /** Call inside the transaction that stores the order. */
    flagLate(row: LateSaleRow): void {
      insertLate.run(row);
    },
    /** Flagged lines of the store's orders (not deleted) sold or recorded in [start, end). */
    linesOfDay(orgId: string, store: string, start: string, end: string): PriceDeviation[] {
      return linesOfDay.all({ orgId, store, start, end }).map((r) => ({
        orderId: r.order_id,
        productId: r.product_id,
        title: r.title,
        quantity: r.quantity,
        price: r.price,
        catalogPrice: r.catalog_price,
        taxRate: r.tax_rate,
        catalogTaxRate: r.catalog_tax_rate,
        deposit: r.deposit,
        catalogDeposit: r.catalog_deposit,
        reasons: r.reasons.split(',') as LineFlagReason[],
        orderDate: r.order_date,
        recordedAt: r.recorded_at,
      }));
    },
    /** Late sales of the store (not deleted) recorded in [start, end). */
    lateOfDay(orgId: string, store: string, start: string, end: string): LateSale[] {
      return lateOfDay.all({ orgId, store, start, end }).map((r) => ({ orderId: r.order_id, orderDate: r.order_date, recordedAt: r.recorded_at, total: r.price }));
    },
  };
}

export type SaleFlagStore = ReturnType<typeof createSaleFlagStore>;
