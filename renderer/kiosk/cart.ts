import type { OrderLine, OrderLineCreate } from '../../shared/api/orders.js';
import type { Product } from '../../shared/api/products.js';
import type { ScaleLabel } from '../../shared/api/scale-labels.js';
import { minimumAgeOf } from '../../shared/minimum-age.js';
import { orderTotal, priceLine, unitPriceAt } from '../../shared/order-pricing.js';

/** One line of the cart. `price` is set when the line's total does not come from the catalog (scale label, open amount). */
export interface CartLine {
  key: number;
  product: Product;
  quantity: number;
  price?: number;
  scaleLabel?: ScaleLabel;
}

export interface VatShare {
  rate: number;
  gross: number;
  tax: number;
}

export interface CartTotals {
  lines: { line: CartLine; priced: OrderLine }[];
  deposit: number;
  total: number;
  vat: VatShare[];
}

/** The customer's cart. Prices come from the shared pricing rules the server records the order with. */
export class Cart {
  lines: CartLine[] = [];
  private nextKey = 1;

  get isEmpty(): boolean {
    return this.lines.length === 0;
  }

  /** One more unit of a catalog-priced product: joins its existing line. */
  addUnit(product: Product): CartLine {
    const existing = this.lines.find((l) => l.product.id === product.id && l.price === undefined);
    if (existing) {
      existing.quantity += 1;
      return existing;
    }
    return this.push({ product, quantity: 1 });
  }

  /** A line with its own total: an amount typed for an open-price product. */
  addAmount(product: Product, cents: number): CartLine {
    return this.push({ product, quantity: 1, price: cents });
  }

  /** A line from a scale's label: the weight in kilograms, or the quantity the label's price stands for. */
  addScaleLabel(product: Product, label: ScaleLabel, at: string): CartLine {
    const unit = unitPriceAt(product, at);
    const kilograms = label.kind === 'weight' ? label.grams / 1000 : unit > 0 ? Math.round((label.price / unit) * 1000) / 1000 : 1;
    return this.push({ product, quantity: kilograms > 0 ? kilograms : 1, price: label.price, scaleLabel: label });
  }

  setQuantity(key: number, quantity: number): void {
    if (quantity <= 0) this.remove(key);
    else for (const line of this.lines) if (line.key === key) line.quantity = quantity;
  }

  remove(key: number): void {
    this.lines = this.lines.filter((l) => l.key !== key);
  }

  /** The highest age any line requires (16 or 18), or undefined when none does. */
  get minimumAge(): number | undefined {
    let highest: number | undefined;
    for (const line of this.lines) {
      const age = minimumAgeOf(line.product);
      if (age !== undefined && (highest === undefined || age > highest)) highest = age;
    }
    return highest;
  }

  get needsAgeCheck(): boolean {
    return this.minimumAge !== undefined;
  }

  /** The lines a customer of `age` may not buy; every restricted line for age 0. */
  linesAbove(age: number): CartLine[] {
    return this.lines.filter((l) => (minimumAgeOf(l.product) ?? 0) > age);
  }

  /** Takes out the lines a customer of `age` may not buy, and answers them. */
  removeAbove(age: number): CartLine[] {
    const removed = this.linesAbove(age);
    this.lines = this.lines.filter((l) => !removed.includes(l));
    return removed;
  }

  clear(): void {
    this.lines = [];
  }

  /** The cart of a sale taken up again after a reload (its card payment was under way). */
  restore(lines: readonly CartLine[]): void {
    this.lines = lines.map((line) => ({ ...line }));
    this.nextKey = Math.max(0, ...lines.map((l) => l.key)) + 1;
  }

  /** What POST /orders needs: the server prices catalog lines itself, lines with their own total carry it. */
  orderLines(): OrderLineCreate[] {
    return this.lines.map(orderLineOf);
  }

  totals(at: string): CartTotals {
    const lines = this.lines.map((line) => ({ line, priced: priceLine(line.product, orderLineOf(line), at) }));
    const priced = lines.map((l) => l.priced);
    return { lines, deposit: priced.reduce((sum, l) => sum + l.deposit, 0), total: orderTotal(priced), vat: vatShares(priced) };
  }

  private push(line: Omit<CartLine, 'key'>): CartLine {
    const added = { ...line, key: this.nextKey++ };
    this.lines.push(added);
    return added;
  }
}

function orderLineOf(line: CartLine): OrderLineCreate {
  return { productId: line.product.id, quantity: line.quantity, ...(line.price !== undefined ? { price: line.price } : {}) };
}

/** VAT per rate, highest rate first, as a receipt lists it. */
export function vatShares(lines: readonly Pick<OrderLine, 'taxRate' | 'price' | 'tax'>[]): VatShare[] {
  const byRate = new Map<number, VatShare>();
  for (const l of lines) {
    const share = byRate.get(l.taxRate) ?? { rate: l.taxRate, gross: 0, tax: 0 };
    share.gross += l.price;
    share.tax += l.tax;
    byRate.set(l.taxRate, share);
  }
  return [...byRate.values()].sort((a, b) => b.rate - a.rate);
}
