import type { ListMeta } from '../../shared/api/common.js';
import type { Order, OrderCreate, OrderLine, OrderLineCreate, OrderListQuery, OrderUpdate } from '../../shared/api/orders.js';
import { newId } from '../rules/ids.js';
import { orderTotal, priceLine, taxOf, type PricedProduct } from '../../shared/order-pricing.js';
import { checkKioskLine, isLateSale, kioskOrderDateProblem, kioskPaymentStateProblem } from '../rules/kiosk-sales.js';
import { saleDifference } from '../rules/same-sale.js';
import { toStoredTime } from '../rules/timestamps.js';
import type { Db } from '../storage/database.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { OrderStore } from '../storage/orders.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { ProductStore } from '../storage/products.js';
import type { SaleFlagStore } from '../storage/sale-flags.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import { BadRequest, Conflict, NotAllowed, NotFound } from './errors.js';
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
  saleFlags: SaleFlagStore;
  clock: Clock;
  payment: OrderPayment;
}) {
  const { db, orders, products, stores, outbox, saleFlags, clock } = deps;

  /** An order the caller may see: a kiosk key sees its own store's orders only, another's is answered like an unknown one. */
  const mustGet = (caller: Caller, id: string): Order => {
    const order = orders.get(caller.orgId, id);
    if (!order || (caller.store && order.store !== caller.store)) throw new NotFound('Order', id);
    return order;
  };

  const requireStore = (orgId: string, storeId: string): void => {
    const deleted = stores.isDeleted(orgId, storeId);
    if (deleted === undefined) throw new BadRequest(`store: no store ${JSON.stringify(storeId)} in this organization`);
    if (deleted) throw new BadRequest(`store: store ${JSON.stringify(storeId)} is deleted`);
  };

  const sellableProduct = (orgId: string, line: OrderLineCreate, index: number): PricedProduct => {
    const field = `products.${index}.productId`;
    const name = JSON.stringify(line.productId);
    const product = products.forSale(orgId, line.productId);
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
    const product = products.forSale(orgId, line.productId);
    return product ? priceLine(product, line, orderDate) : unknownProductLine(line);
  };

  /** The stored order's id when the request is the same sale again; another sale under its store and orderId is a conflict. */
  const sameSale = (stored: Order, body: OrderCreate): string => {
    const difference = saleDifference(stored, body);
    if (difference === undefined) return stored.id;
    throw new Conflict(
      `orderId ${JSON.stringify(stored.orderId)} is already recorded at store ${JSON.stringify(stored.store)} as order ${JSON.stringify(stored.id)} ` +
        `with other content (${difference}). Give a different sale its own orderId; a resend must repeat the first request.`,
    );
  };

  /** A kiosk key records the sales a kiosk makes: paid, dated within its journal's resend window. */
  const checkKioskSale = (body: OrderCreate, orderDate: string, now: Date): void => {
    const problem = kioskPaymentStateProblem(body.paymentState) ?? kioskOrderDateProblem(orderDate, now);
    if (problem !== undefined) throw new BadRequest(problem);
  };

  /**
   * A kiosk may not sell cheaper unnoticed: each line that differs from the
   * catalog at the order's date, and a sale recorded long after its date, is
   * noted for the day's report. The order is recorded all the same: a paid
   * sale resent after a price change must never be lost.
   */
  const flagKioskSale = (orgId: string, order: Order, recordedAt: string): void => {
    order.products.forEach((line, index) => {
      const check = checkKioskLine(line, products.get(orgId, line.productId), order.orderDate);
      if (check.reasons.length === 0) return;
      const { productId, title, quantity, price, taxRate, deposit } = line;
      const where = { orgId, orderId: order.id, line: index, store: order.store, orderDate: order.orderDate, recordedAt };
      saleFlags.flagLine({ ...where, productId, title, quantity, price, taxRate, deposit, ...check });
    });
    if (isLateSale(order.orderDate, recordedAt)) {
      saleFlags.flagLate({ orgId, orderId: order.id, store: order.store, orderDate: order.orderDate, recordedAt, total: order.price });
    }
  };

  return {
    /**
     * Records a sale, priced from the catalog unless every line carries what
     * was sold (then the catalog's current state cannot refuse it). With an
     * orderId already used at the store it returns that order's id and stores
     * nothing when the request is the same sale (a till retrying must not fail,
     * also after the catalog changed), and answers 409 when it is another sale.
     */
    create(caller: Caller, body: OrderCreate): string {
      const orgId = caller.orgId;
      if (caller.store && body.store !== caller.store) {
        throw new NotAllowed(`store: a kiosk key of store ${JSON.stringify(caller.store)} records sales of that store only, not of ${JSON.stringify(body.store)}`);
      }
      const clockNow = clock.now();
      const now = clockNow.toISOString();
      // IMMEDIATE takes the write lock before the orderId lookup, so another
      // process cannot store the same orderId between lookup and insert.
      return immediateTransaction(db, (): string => {
        const known = body.orderId === undefined ? undefined : orders.byOrderId(orgId, body.store, body.orderId);
        if (known !== undefined) return sameSale(known, body);
        requireStore(orgId, body.store);
        const orderDate = body.orderDate === undefined ? now : toStoredTime(body.orderDate);
        if (caller.keyKind === 'kiosk') checkKioskSale(body, orderDate, clockNow);
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
        if (!orders.insert(orgId, order, now)) return sameSale(orders.byOrderId(orgId, order.store, order.orderId) as Order, body);
        paid?.claim(id);
        outbox.append({ orgId, relayed: caller.relayed, resource: 'order', resourceId: id, operation: 'create', body: replayBody(order), createdAt: now });
        if (caller.keyKind === 'kiosk') flagKioskSale(orgId, order, now);
        return id;
      });
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
