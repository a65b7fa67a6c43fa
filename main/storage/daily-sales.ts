import { COUNTED_PAYMENT_STATES } from '../../shared/api/reports.js';
import type { DayRefund } from '../rules/day-refunds.js';
import type { OrderLine } from '../../shared/api/orders.js';
import type { Db } from './database.js';

/** Orders of one kind in a day: deleted or not, payment state, method and brand. */
export interface OrderGroup {
  deleted: boolean;
  paymentState: string;
  paymentMethod: string | null;
  paymentBrand: string | null;
  sales: number;
  total: number;
  firstAt: string;
  lastAt: string;
}

/** A counted order's time and lines. */
export interface CountedOrder {
  orderDate: string;
  lines: OrderLine[];
}

/** A product's prices in the catalog now, for a product that has a sale price. */
export interface SaleWindow {
  price: number;
  salePrice: number;
  salePriceDateFrom?: string;
  salePriceDateTo?: string;
}

type Range = [orgId: string, store: string, start: string, end: string];

/**
 * The daily report's reads, each one range of the orders_org_store_date index:
 * SQLite groups the orders; the counted orders' lines come as their JSON, which
 * JSON.parse reads several times faster than SQLite's json_each would.
 */
export function createDailySalesStore(db: Db) {
  const DAY = 'o.org_id = ? AND o.store = ? AND o.order_date >= ? AND o.order_date < ?';
  const COUNTED = `o.deleted = 0 AND o.payment_state IN (${COUNTED_PAYMENT_STATES.map((state) => `'${state}'`).join(', ')})`;
  // By the day the terminal confirmed each refund, not the day of its sale.
  const refunds = db.prepare<Range, Record<string, unknown>>(
    `SELECT r.amount, o.products, o.payment_method, o.payment_brand
     FROM refunds r JOIN payments p ON p.id = r.payment_id JOIN orders o ON o.id = p.order_id AND o.org_id = p.org_id
     WHERE r.org_id = ? AND p.store = ? AND r.decided_at >= ? AND r.decided_at < ? AND r.state = 'done' AND p.refused = 0 AND o.deleted = 0
     ORDER BY r.decided_at`,
  );
  const orders = db.prepare<Range, Record<string, unknown>>(
    `SELECT o.deleted, o.payment_state, o.payment_method, o.payment_brand, count(*) AS sales, sum(o.price) AS total,
            min(o.order_date) AS first_at, max(o.order_date) AS last_at
     FROM orders o WHERE ${DAY}
     GROUP BY o.deleted, o.payment_state, o.payment_method, o.payment_brand`,
  );
  const counted = db.prepare<Range, [string, string]>(`SELECT o.order_date, o.products FROM orders o WHERE ${DAY} AND ${COUNTED}`).raw();
  const saleWindow = db.prepare<[string, string], Record<string, unknown>>(
    'SELECT price, sale_price, sale_price_date_from, sale_price_date_to FROM products WHERE id = ? AND org_id = ? AND sale_price IS NOT NULL',
  );

  return {
    orderGroups(...range: Range): OrderGroup[] {
      return orders.all(...range).map((row) => ({
        deleted: row.deleted === 1,
        paymentState: row.payment_state as string,
        paymentMethod: row.payment_method as string | null,
        paymentBrand: row.payment_brand as string | null,
        sales: row.sales as number,
        total: row.total as number,
        firstAt: row.first_at as string,
        lastAt: row.last_at as string,
      }));
    },
    countedOrders(...range: Range): CountedOrder[] {
      return counted.all(...range).map(([orderDate, lines]) => ({ orderDate, lines: JSON.parse(lines) as OrderLine[] }));
    },
    /** Card refunds of the store's orders confirmed in the range, with each order's lines. */
    refunds(...range: Range): DayRefund[] {
      return refunds.all(...range).map((row) => ({
        amount: row.amount as number,
        lines: JSON.parse(row.products as string) as OrderLine[],
        paymentMethod: row.payment_method as string | null,
        paymentBrand: row.payment_brand as string | null,
      }));
    },
    saleWindow(orgId: string, productId: string): SaleWindow | undefined {
      const row = saleWindow.get(productId, orgId);
      if (!row) return undefined;
      return {
        price: row.price as number,
        salePrice: row.sale_price as number,
        ...(row.sale_price_date_from === null ? {} : { salePriceDateFrom: row.sale_price_date_from as string }),
        ...(row.sale_price_date_to === null ? {} : { salePriceDateTo: row.sale_price_date_to as string }),
      };
    },
  };
}

export type DailySalesStore = ReturnType<typeof createDailySalesStore>;
