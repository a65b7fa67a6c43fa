import type { OrderLine, OrderLineCreate } from './api/orders.js';
import { QUANTITY_DECIMALS } from './decimals.js';
import type { Product } from './api/products.js';
import { taxRateOf } from './tax.js';

/**
 * Pricing of order lines from the catalog. Every amount is computed exactly in
 * decimal and rounded once to whole cents, half away from zero (all amounts are
 * 0 or more, so this is "half up"). Floating point never decides a rounding:
 * quantities and tax rates are turned into integers of millionths first.
 */

const SCALE = 10 ** QUANTITY_DECIMALS;
const BIG_SCALE = BigInt(SCALE);

/** The catalog fields of a product that pricing reads. */
export type PricedProduct = Pick<
  Product,
  'name' | 'price' | 'taxCategory' | 'salePrice' | 'salePriceDateFrom' | 'salePriceDateTo' | 'depositProduct' | 'supplier' | 'category'
>;

/** `value` in millionths; exact for the values the API accepts (at most 6 decimal places). */
function scaled(value: number): bigint {
  return BigInt(Math.round(value * SCALE));
}

/** numerator / denominator rounded half up; both are 0 or more. */
function divideRounded(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/** Cents for `quantity` units of `unitCents`, rounded to whole cents. */
export function multiplyCents(unitCents: number, quantity: number): number {
  return divideRounded(BigInt(unitCents) * scaled(quantity), BIG_SCALE);
}

/** VAT contained in a gross amount: round(gross x rate / (1 + rate)). */
export function taxOf(grossCents: number, taxRate: number): number {
  const rate = scaled(taxRate);
  return divideRounded(BigInt(grossCents) * rate, BIG_SCALE + rate);
}

/**
 * Whether the sale price applies at `at`. The window is inclusive on both
 * ends; a missing bound leaves that side open. A sale price without either date
 * is not applied: a catalog that carries a sale price but no window has not
 * scheduled the sale.
 */
export function isOnSale(product: Pick<PricedProduct, 'salePrice' | 'salePriceDateFrom' | 'salePriceDateTo'>, at: string): boolean {
  if (product.salePrice === undefined) return false;
  const from = product.salePriceDateFrom;
  const to = product.salePriceDateTo;
  if (from === undefined && to === undefined) return false;
  const time = Date.parse(at);
  if (from !== undefined && time < Date.parse(from)) return false;
  if (to !== undefined && time > Date.parse(to)) return false;
  return true;
}

/** Gross unit price in cents at the time of the order. */
export function unitPriceAt(product: PricedProduct, at: string): number {
  return isOnSale(product, at) ? (product.salePrice as number) : product.price;
}

/** Prices one line: catalog values unless the line carries its own. */
export function priceLine(product: PricedProduct, request: OrderLineCreate, orderDate: string): OrderLine {
  const price = request.price ?? multiplyCents(unitPriceAt(product, orderDate), request.quantity);
  const taxRate = request.taxRate ?? taxRateOf(product.taxCategory);
  const tax = taxOf(price, taxRate);
  const line: OrderLine = {
    productId: request.productId,
    quantity: request.quantity,
    title: request.title ?? product.name,
    price,
    netPrice: price - tax,
    tax,
    taxRate,
    type: 'product',
    deposit: request.deposit ?? multiplyCents(product.depositProduct ?? 0, request.quantity),
  };
  if (product.supplier !== undefined) line.supplier = product.supplier;
  if (product.category !== undefined) line.category = product.category;
  return line;
}

/** Order total: every line's price plus its deposit. */
export function orderTotal(lines: readonly Pick<OrderLine, 'price' | 'deposit'>[]): number {
  let total = 0;
  for (const line of lines) total += line.price + line.deposit;
  return total;
}
