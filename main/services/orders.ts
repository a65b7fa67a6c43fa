import type { ListMeta } from '../../shared/api/common.js';
import type { Order, OrderCreate, OrderLine, OrderLineCreate, OrderListQuery, OrderUpdate } from '../../shared/api/orders.js';
import { newId } from '../rules/ids.js';
import { multiplyCents, orderTotal, priceLine, taxOf, unitPriceAt, type PricedProduct } from '../../shared/order-pricing.js';
import { toStoredTime } from '../rules/timestamps.js';
import type { Db } from '../storage/database.js';
import type { OrderStore } from '../storage/orders.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { PriceDeviationStore } from '../storage/price-deviations.js';
import type { ProductStore } from '../storage/products.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import { BadRequest, NotAllowed, NotFound } from './errors.js';
import type { OrderPayment } from './order-payment.js';
import { toPage } from './paging.js';
import { readTimeCursor } from './time-cursor.js';
import { applyPartialUpdate } from './partial-update.js';

/** Payment state of an order created without one. */
export const DEFAULT_PAYMENT_STATE = 'successful';

const OPTIONAL_FIELDS = ['paymentMethod', 'paymentBrand', 'transactionMessage', 'giftcardId'] as const;

/** The create body that makes the same order elsewhere: every line as sold, so no other catalog re-prices it. */
function replayBody(order: Order): OrderCreate {
  const { id: _id, price: _price, deleted: _deleted, products, ...fields } = order;
  return {
    ...fields,
    products: products.map(({ productId, quantity, title, price, taxRate, deposit }) => ({
      productId,
      quantity,
      title,
      price,
      taxRate,
      deposit,
    })),
  };
}

/** A line that carries its own `title`, `price` and `taxRate`: a record of what was sold. */
type LineAsSold = OrderLineCreate & Required<Pick<OrderLineCreate, 'title' | 'price' | 'taxRate'>>;

const isAsSold = (line: OrderLineCreate): line is LineAsSold => line.title !== undefined && line.price !== undefined && line.taxRate !== undefined;

/**
 * A sold line whose product this server does not know (never reached it, or
 * another store's record): stored with its own data, without supplier and
 * category, and without a deposit unless the line carries one.
 */
function unknownProductLine(line: LineAsSold): OrderLine {
  const tax = taxOf(line.price, line.taxRate);
  return {
    productId: line.productId,
    quantity: line.quantity,
    title: line.title,
    price: line.price,
    netPrice: line.price - tax,
    tax,
    taxRate: line.taxRate,
    type: 'product',
    deposit: line.deposit ?? 0,
  };
}

/** Applies the stored form to update fields as a client sent them. */
function normalizePatch(patch: OrderUpdate): OrderUpdate {
  const out: OrderUpdate = { ...patch };
  if (patch.transactionDate !== undefined) out.transactionDate = toStoredTime(patch.transactionDate);
  return out;
}

export function createOrderService(deps: {
  db: Db;
  orders: OrderStore;
  products: ProductStore;
  stores: StoreStore;
  outbox: OutboxStore;
  priceDeviations: PriceDeviationStore;
  clock: Clock;
  payment: OrderPayment;
}) {
  const { db, orders, products, stores, outbox, priceDeviations, clock } = deps;

  /** An order the caller may see: a kiosk key sees its own store's orders only, another's is answered like an unknown one. */
  const mustGet = (caller: Caller, id: string): Order => {
    const order = orders.get(caller.orgId, id);
    if (!order || (caller.store && order.store !== caller.store)) throw new NotFound('Order', id);
    return order;
  };

  const requireStore = (orgId: string, storeId: string): void => {
    const store = stores.get(orgId, storeId);
    if (!store) throw new BadRequest(`store: no store ${JSON.stringify(storeId)} in this organization`);
    if (store.deleted) throw new BadRequest(`store: store ${JSON.stringify(storeId)} is deleted`);
  };

  const sellableProduct = (orgId: string, line: OrderLineCreate, index: number): PricedProduct => {
    const field = `products.${index}.productId`;
    const name = JSON.stringify(line.productId);
    const product = products.get(orgId, line.productId);
    if (!product) throw new BadRequest(`${field}: no product ${name} in this organization`);
    if (product.deleted) throw new BadRequest(`${field}: product ${name} is deleted and cannot be sold`);
    if (product.saleStop) throw new BadRequest(`${field}: product ${name} has saleStop set and cannot be sold`);
    if (product.deactivated) throw new BadRequest(`${field}: product ${name} is deactivated and cannot be sold`);
    return product;
  };

  /**
   * Sales are facts: when every line carries what was sold, the sale is stored
   * even if its products were since deleted, stopped or deactivated, or never
   * reached this server (a store's sale pushed after the catalog changed here).
   */
  const recordedLine = (orgId: string, line: LineAsSold, orderDate: string): OrderLine => {
    const product = products.get(orgId, line.productId);
    return product ? priceLine(product, line, orderDate) : unknownProductLine(line);
  };

  /**
   * A kiosk may not set its own prices unnoticed: each line it sent with a
   * price of its own that differs from the catalog's (as the catalog stands
   * now, sale price by the order's date) is noted for the day's report. The
   * order is recorded all the same: a paid sale resent after a price change
   * must never be lost.
   */
  const notePriceDeviations = (caller: Caller, order: Order, sent: OrderLineCreate[]): void => {
    if (caller.keyKind !== 'kiosk') return;
    sent.forEach((line, index) => {
      if (line.price === undefined) return;
      const product = products.get(caller.orgId, line.productId);
      if (!product) return;
      const catalogPrice = multiplyCents(unitPriceAt(product, order.orderDate), line.quantity);
      if (catalogPrice === line.price) return;
      const stored = order.products[index] as OrderLine;
      priceDeviations.insert({
        orgId: caller.orgId,
        orderId: order.id,
        line: index,
        store: order.store,
        orderDate: order.orderDate,
        productId: line.productId,
        title: stored.title,
        quantity: line.quantity,
        price: line.price,
        catalogPrice,
      });
    });
  };

  return {
    /**
     * Records a sale, priced from the catalog unless every line carries what
     * was sold (then the catalog's current state cannot refuse it). With an orderId already used in
     * the organization it returns that order's id and stores nothing, also when
     * the catalog has changed since: a till retrying a sale must not fail.
     */
    create(caller: Caller, body: OrderCreate): string {
      const orgId = caller.orgId;
      if (caller.store && body.store !== caller.store) {
        throw new NotAllowed(`store: a kiosk key of store ${JSON.stringify(caller.store)} records sales of that store only, not of ${JSON.stringify(body.store)}`);
      }
      const now = clock.now().toISOString();
      // IMMEDIATE takes the write lock before the orderId lookup, so another
      // process cannot store the same orderId between lookup and insert.
      return db
        .transaction((): string => {
          const known = body.orderId === undefined ? undefined : orders.idOfOrderId(orgId, body.orderId);
          if (known !== undefined) return known;
          requireStore(orgId, body.store);
          const orderDate = body.orderDate === undefined ? now : toStoredTime(body.orderDate);
          const asSold = body.products.every(isAsSold);
          const lines = body.products.map((line, index) =>
            asSold ? recordedLine(orgId, line as LineAsSold, orderDate) : priceLine(sellableProduct(orgId, line, index), line, orderDate),
          );
          const price = orderTotal(lines);
          if (!Number.isSafeInteger(price)) throw new BadRequest('products: the order total is too large to be counted in cents');
          const id = newId();
          const paid = deps.payment.check(caller, body, price);
          const order: Order = {
            id,
            orderId: body.orderId ?? id,
            store: body.store,
            price,
            paymentState: body.paymentState ?? DEFAULT_PAYMENT_STATE,
            orderDate,
            deleted: false,
            products: lines,
          };
          for (const field of OPTIONAL_FIELDS) if (body[field] !== undefined) order[field] = body[field];
          if (body.transactionDate !== undefined) order.transactionDate = toStoredTime(body.transactionDate);
          Object.assign(order, paid?.fields);
          // The lock makes a conflict here unlikely; the unique index makes it harmless.
          if (!orders.insert(orgId, order, now)) return orders.idOfOrderId(orgId, order.orderId) as string;
          paid?.claim(id);
          outbox.append({ orgId, relayed: caller.relayed, resource: 'order', resourceId: id, operation: 'create', body: replayBody(order), createdAt: now });
          notePriceDeviations(caller, order, body.products);
          return id;
        })
        .immediate();
    },

    /** An order, also a soft-deleted one (with `deleted: true`). */
    get(caller: Caller, id: string): Order {
      return mustGet(caller, id);
    },

    update(caller: Caller, id: string, patch: OrderUpdate): void {
      const fields = normalizePatch(patch);
      applyPartialUpdate(deps, {
        caller,
        resource: 'order',
        id,
        fields,
        read: () => mustGet(caller, id),
        write: (current, now) => orders.update(caller.orgId, { ...current, ...fields }, now),
      });
    },

    /** Orders with orderDate in [start, end], newest first, paged by keyset cursor. */
    list(caller: Caller, query: OrderListQuery): { data: Order[]; meta: ListMeta } {
      const after = readTimeCursor(query.cursor);
      const rows = orders.page({
        orgId: caller.orgId,
        store: caller.store ?? null,
        start: toStoredTime(query.start),
        end: toStoredTime(query.end),
        paymentState: query.paymentState,
        includeDeleted: query.includeDeleted,
        after: after && { orderDate: after.key, id: after.id },
        limit: query.limit + 1,
      });
      return toPage(rows, query.limit, (o) => ({ key: o.orderDate, id: o.id }));
    },
  };
}

export type OrderService = ReturnType<typeof createOrderService>;
