import type { Order } from '../../shared/api/orders.js';
import { columnMapping } from './column-map.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

const mapping = columnMapping({
  id: ['id', 'text'],
  orderId: ['order_id', 'text'],
  store: ['store', 'text'],
  price: ['price', 'number'],
  paymentState: ['payment_state', 'text'],
  paymentMethod: ['payment_method', 'text'],
  paymentBrand: ['payment_brand', 'text'],
  orderDate: ['order_date', 'text'],
  transactionDate: ['transaction_date', 'text'],
  transactionMessage: ['transaction_message', 'text'],
  giftcardId: ['giftcard_id', 'text'],
  deleted: ['deleted', 'bool'],
  refunded: ['refunded', 'number'],
  products: ['products', 'json'],
});

type Row = Record<string, unknown>;

const fromRow = (row: Row) => mapping.fromRow(row) as Order;

const COLUMNS = [...mapping.columns, 'org_id', 'createdate', 'lastupdate'];

/** Fields an update may change; lines, prices, store and dates of the sale stay as recorded. */
const MUTABLE = ['payment_state', 'payment_method', 'payment_brand', 'transaction_date', 'transaction_message', 'giftcard_id', 'deleted', 'refunded'];

export interface OrderPageQuery {
  orgId: string;
  /** Only this store's orders; null for every store. */
  store?: string | null | undefined;
  /** Inclusive bounds of orderDate, in stored form (UTC with milliseconds). */
  start: string;
  end: string;
  paymentState?: string | undefined;
  includeDeleted: boolean;
  /** Serve rows strictly after this position in newest-first order. */
  after?: { orderDate: string; id: string } | undefined;
  limit: number;
}

const PAGE = (afterClause: string) => `SELECT * FROM orders
  WHERE org_id = @orgId AND order_date >= @start AND order_date <= @end
    AND (@includeDeleted = 1 OR deleted = 0)
    AND (@paymentState IS NULL OR payment_state = @paymentState)
    AND (@store IS NULL OR store = @store)
    ${afterClause}
  ORDER BY order_date DESC, id DESC
  LIMIT ${pageLimit('@limit')}`;

export function createOrderStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO orders (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})
     ON CONFLICT (org_id, store, order_id) DO NOTHING`,
  );
  const update = db.prepare(
    `UPDATE orders SET ${MUTABLE.map((c) => `${c} = @${c}`).join(', ')}, lastupdate = @lastupdate WHERE id = @id AND org_id = @org_id`,
  );
  const byId = db.prepare<[string, string], Row>('SELECT * FROM orders WHERE id = ? AND org_id = ?');
  const byOrderId = db.prepare<[string, string, string], Row>('SELECT * FROM orders WHERE org_id = ? AND store = ? AND order_id = ?');
  const firstPage = db.prepare<Row, Row>(PAGE(''));
  const nextPage = db.prepare<Row, Row>(PAGE('AND (order_date < @afterDate OR (order_date = @afterDate AND id < @afterId))'));

  return {
    /**
     * Stores a new order unless one with the same orderId exists at the same
     * store. Returns false, storing nothing, when one does.
     */
    insert(orgId: string, order: Order, now: string): boolean {
      return insert.run({ ...mapping.toRow(order), org_id: orgId, createdate: now, lastupdate: now }).changes === 1;
    },
    /** Writes the fields an update may change. */
    update(orgId: string, order: Order, now: string): void {
      update.run({ ...mapping.toRow(order), org_id: orgId, lastupdate: now });
    },
    get(orgId: string, id: string): Order | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** The store's order with this till order number. */
    byOrderId(orgId: string, store: string, orderId: string): Order | undefined {
      const row = byOrderId.get(orgId, store, orderId);
      return row ? fromRow(row) : undefined;
    },
    page(q: OrderPageQuery): Order[] {
      const params: Row = {
        orgId: q.orgId,
        start: q.start,
        end: q.end,
        includeDeleted: q.includeDeleted ? 1 : 0,
        paymentState: q.paymentState ?? null,
        store: q.store ?? null,
        limit: q.limit,
      };
      if (!q.after) return firstPage.all(params).map(fromRow);
      return nextPage.all({ ...params, afterDate: q.after.orderDate, afterId: q.after.id }).map(fromRow);
    },
  };
}

export type OrderStore = ReturnType<typeof createOrderStore>;
