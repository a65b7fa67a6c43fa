import type { Order } from '../api/orders.js';
import type { Store } from '../api/stores.js';
import type { StoreLanguage } from '../languages.js';
import { isOnSale, type PricedProduct } from '../order-pricing.js';
import { DEFAULT_TIME_ZONE } from '../time-zones.js';
import { cardBrandName } from '../card-brand.js';
import { shortOrderNumber } from './short-number.js';

/** One line as the receipt shows it; amounts in cents, VAT included. */
export interface ReceiptLine {
  title: string;
  quantity: number;
  /** Price of one unit as sold: the line's amount divided by its quantity, rounded to the cent. */
  unitPrice: number;
  /** The line's amount as the order recorded it. */
  amount: number;
  /** The product's regular unit price when the line was sold at its sale price. */
  regularUnitPrice?: number;
  /** Deposit for the line's units; 0 when none. */
  deposit: number;
  taxRate: number;
}

/** VAT of one rate: `gross` is the sum of the lines' amounts at that rate, `tax` the sum of their VAT, `net` the rest. */
export interface ReceiptVat {
  rate: number;
  gross: number;
  net: number;
  tax: number;
}

/** Everything a receipt says, the same on screen and on paper. Amounts in cents. */
export interface Receipt {
  language: StoreLanguage;
  /** The order's id on this server. */
  orderId: string;
  /** The till's own order number (`orderId` of the order). */
  tillOrderId: string;
  /** Six digits a customer can read out; see shortOrderNumber. */
  number: string;
  store: { name: string; address?: string; place?: string; vatNumber?: string };
  /** Time of the sale (ISO 8601). */
  issuedAt: string;
  /** IANA time zone the time is shown in: the store's `timeZone`, else Europe/Zurich. */
  timeZone: string;
  lines: ReceiptLine[];
  /** Sum of the lines' deposits; deposits carry no VAT in the order's sums. */
  deposits: number;
  /** Per rate, highest rate first. */
  vat: ReceiptVat[];
  /** The order's total: every line's amount and deposit. */
  total: number;
  paymentMethod?: string;
  paymentBrand?: string;
  /**
   * The card terminal's customer receipt of a card sale, line by line exactly
   * as the terminal gave it (card schemes inspect these lines).
   */
  cardReceipt?: string[];
  /** The e-receipt's address, when the kiosk has a receipt URL template. */
  eReceiptUrl?: string;
}

export interface ReceiptOptions {
  language: StoreLanguage;
  /** For example `https://shop.example/r/{orderId}`: `{orderId}` becomes the till's order number. */
  receiptUrlTemplate?: string | undefined;
  /** The catalog's product of a line, to tell sale prices apart; a line without one shows no sale. */
  productOf?: ((productId: string) => PricedProduct | undefined) | undefined;
  /** The card terminal's customer receipt lines of the order's payment. */
  cardReceipt?: readonly string[] | undefined;
}

const present = (value: string | undefined) => (value?.trim() ? value.trim() : undefined);

function unitPriceOf(amount: number, quantity: number): number {
  return quantity > 0 ? Math.round(amount / quantity) : amount;
}

function lineOf(line: Order['products'][number], orderDate: string, productOf: ReceiptOptions['productOf']): ReceiptLine {
  const unitPrice = unitPriceOf(line.price, line.quantity);
  const receiptLine: ReceiptLine = { title: line.title, quantity: line.quantity, unitPrice, amount: line.price, deposit: line.deposit, taxRate: line.taxRate };
  const product = productOf?.(line.productId);
  if (product && isOnSale(product, orderDate) && product.salePrice === unitPrice && product.price > unitPrice) receiptLine.regularUnitPrice = product.price;
  return receiptLine;
}

/** VAT per rate from the lines' own VAT, so the receipt's sums are the order's to the cent. */
export function vatPerRate(lines: readonly Pick<Order['products'][number], 'taxRate' | 'price' | 'tax'>[]): ReceiptVat[] {
  const byRate = new Map<number, ReceiptVat>();
  for (const line of lines) {
    const share = byRate.get(line.taxRate) ?? { rate: line.taxRate, gross: 0, net: 0, tax: 0 };
    share.gross += line.price;
    share.tax += line.tax;
    share.net = share.gross - share.tax;
    byRate.set(line.taxRate, share);
  }
  return [...byRate.values()].sort((a, b) => b.rate - a.rate);
}

/** The e-receipt's address: the template with `{orderId}` replaced by the till's order number. */
export function eReceiptUrlOf(template: string | undefined, tillOrderId: string): string | undefined {
  const trimmed = template?.trim();
  return trimmed ? trimmed.replaceAll('{orderId}', encodeURIComponent(tillOrderId)) : undefined;
}

/** What a receipt says about its store, and the time zone its date and time are written in. */
export type ReceiptStore = Pick<Store, 'name' | 'address' | 'zipCode' | 'city' | 'vatNumber' | 'timeZone'>;

/** The receipt of a stored order at a store. */
export function buildReceipt(order: Order, store: ReceiptStore, options: ReceiptOptions): Receipt {
  const place = [present(store.zipCode), present(store.city)].filter(Boolean).join(' ');
  const receipt: Receipt = {
    language: options.language,
    orderId: order.id,
    tillOrderId: order.orderId,
    number: shortOrderNumber(order.orderId),
    store: { name: store.name },
    issuedAt: order.orderDate,
    timeZone: store.timeZone ?? DEFAULT_TIME_ZONE,
    lines: order.products.map((line) => lineOf(line, order.orderDate, options.productOf)),
    deposits: order.products.reduce((sum, line) => sum + line.deposit, 0),
    vat: vatPerRate(order.products),
    total: order.price,
  };
  const address = present(store.address);
  const vatNumber = present(store.vatNumber);
  if (address) receipt.store.address = address;
  if (place) receipt.store.place = place;
  if (vatNumber) receipt.store.vatNumber = vatNumber;
  if (order.paymentMethod) receipt.paymentMethod = order.paymentMethod;
  if (order.paymentBrand) receipt.paymentBrand = cardBrandName(order.paymentBrand);
  if (options.cardReceipt && options.cardReceipt.length > 0) receipt.cardReceipt = [...options.cardReceipt];
  const url = eReceiptUrlOf(options.receiptUrlTemplate, order.orderId);
  if (url) receipt.eReceiptUrl = url;
  return receipt;
}
