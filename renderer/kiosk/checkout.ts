import type { Order, OrderCreate, OrderLine } from '../../shared/api/orders.js';
import { orderTotal, taxOf } from '../../shared/order-pricing.js';
import type { SaleJournalEntry } from '../../shared/sales-journal.js';
import { ApiError, type ApiClient } from './api-client.js';

/** Pauses between attempts to record a sale, in milliseconds; the last one repeats. */
const RETRY_DELAYS_MS = [300, 1000, 2000, 5000, 10_000, 30_000];

/** Answers that say the same request may succeed later; any other 4xx is a refusal. */
const TRANSIENT_4XX = new Set([408, 409, 425, 429]);

/** A paid sale as `POST /orders` receives it: every line carries what it was sold as. */
export type Sale = OrderCreate & { orderId: string; orderDate: string };

/** A journal entry whose sale the server has stored. */
export type StoredSale = SaleJournalEntry & { storedId: string };

/** Why the last attempt failed: `refused` when the server turned the sale down (a 4xx), so that staff are needed. */
export interface SendFailure {
  attempt: number;
  refused: boolean;
}

/** The till's own order number, made when checkout starts: every attempt to record this sale sends it. */
export function newOrderId(): string {
  return crypto.randomUUID();
}

/**
 * The sale to record, from the cart's lines priced at checkout. Each line
 * carries its title, price, tax rate and deposit, so the server stores it as
 * sold (see "Sales are facts" in DESIGN.md): a sale sent again hours later
 * from the journal is neither re-priced nor refused because its product has
 * since been stopped or deleted, and the receipt can be built from it alone.
 */
export function saleOf(orderId: string, store: string, orderDate: string, lines: readonly OrderLine[], payment: Partial<Pick<OrderCreate, 'paymentMethod' | 'paymentBrand' | 'transactionDate' | 'transactionMessage'>>): Sale {
  return {
    orderId,
    store,
    orderDate,
    products: lines.map(({ productId, quantity, title, price, taxRate, deposit }) => ({ productId, quantity, title, price, taxRate, deposit })),
    ...payment,
  };
}

/**
 * Records a paid sale, however long it takes. Whatever went wrong (no answer,
 * a timeout, a 5xx such as a full disk's 503, even a refusal) the same body
 * with the same `orderId` is sent again after a pause that grows to 30 s: the
 * server returns the first order's id for a repeated `orderId` and creates
 * nothing twice, so no resend can record the sale twice.
 */
export async function sendSale(api: ApiClient, sale: OrderCreate, onFailure: (failure: SendFailure) => void): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.createOrder(sale);
    } catch (err) {
      console.warn(`recording sale ${sale.orderId ?? ''} failed (attempt ${attempt}); trying again`, err);
      onFailure({ attempt, refused: err instanceof ApiError && err.status >= 400 && err.status < 500 && !TRANSIENT_4XX.has(err.status) });
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] as number;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

/**
 * The stored order as the till sent it, for a receipt when reading the order
 * back fails: the amounts follow from the lines with the server's own rules.
 */
export function orderOfSale({ sale, storedId, paidAt }: StoredSale): Order {
  const products: OrderLine[] = sale.products.map((line) => {
    const price = line.price ?? 0;
    const taxRate = line.taxRate ?? 0;
    const tax = taxOf(price, taxRate);
    return { productId: line.productId, quantity: line.quantity, title: line.title ?? '', price, netPrice: price - tax, tax, taxRate, type: 'product', deposit: line.deposit ?? 0 };
  });
  const { paymentMethod, paymentBrand, transactionDate, transactionMessage, giftcardId } = sale;
  const payment = Object.fromEntries(Object.entries({ paymentMethod, paymentBrand, transactionDate, transactionMessage, giftcardId }).filter(([, value]) => value !== undefined));
  return {
    id: storedId,
    orderId: sale.orderId ?? storedId,
    store: sale.store,
    price: orderTotal(products),
    paymentState: sale.paymentState ?? 'successful',
    orderDate: sale.orderDate ?? paidAt,
    deleted: false,
    products,
    ...payment,
  };
}
