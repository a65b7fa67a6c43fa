import type { OrderLine } from '../../shared/api/orders.js';
import type { PaymentTotal, TaxRateTotal } from '../../shared/api/reports.js';
import { taxOf } from '../../shared/order-pricing.js';
import type { DailyTotals } from './daily-totals.js';

/** A card refund confirmed on the report's day, with the order it gave money back for (sold on any day). */
export interface DayRefund {
  amount: number;
  lines: OrderLine[];
  paymentMethod: string | null;
  paymentBrand: string | null;
}

/**
 * Splits `cents` over `weights` in proportion, by largest remainder: the parts
 * add up to `cents` exactly. All weights 0 give all parts 0.
 */
export function splitInProportion(cents: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  if (sum === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (cents * w) / sum);
  const parts = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ i, rest: x - Math.floor(x) })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (let left = cents - parts.reduce((a, p) => a + p, 0), k = 0; left > 0; left -= 1, k += 1) parts[order[k % order.length]!.i]! += 1;
  return parts;
}

const byName = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * Takes the day's card refunds off the day's figures: each refund off
 * `total`, off its order's payment row, and off `byTaxRate` in proportion to
 * the order's gross per rate (its VAT recomputed on the part, as a line's is).
 * Its sale still counts on the sale's own day.
 */
export function subtractRefunds<T extends Pick<DailyTotals, 'total' | 'byPaymentMethod' | 'byTaxRate'>>(totals: T, refunds: readonly DayRefund[]): T & { refunds: { refunds: number; total: number } } {
  const payments = new Map<string, PaymentTotal>(totals.byPaymentMethod.map((p) => [`${p.paymentMethod}\n${p.paymentBrand}`, { ...p }]));
  const rates = new Map<number, TaxRateTotal>(totals.byTaxRate.map((r) => [r.taxRate, { ...r }]));
  let given = 0;
  for (const refund of refunds) {
    given += refund.amount;
    const key = `${refund.paymentMethod}\n${refund.paymentBrand}`;
    const row = payments.get(key) ?? { paymentMethod: refund.paymentMethod, paymentBrand: refund.paymentBrand, sales: 0, total: 0 };
    row.total -= refund.amount;
    payments.set(key, row);
    const gross = new Map<number, number>();
    for (const line of refund.lines) gross.set(line.taxRate, (gross.get(line.taxRate) ?? 0) + line.price);
    const orderRates = [...gross.keys()].sort((a, b) => a - b);
    const parts = splitInProportion(refund.amount, orderRates.map((r) => gross.get(r) ?? 0));
    orderRates.forEach((taxRate, i) => {
      const part = parts[i] ?? 0;
      const rate = rates.get(taxRate) ?? { taxRate, gross: 0, net: 0, tax: 0 };
      const tax = taxOf(part, taxRate);
      rate.gross -= part;
      rate.tax -= tax;
      rate.net -= part - tax;
      rates.set(taxRate, rate);
    });
  }
  return {
    ...totals,
    total: totals.total - given,
    byPaymentMethod: [...payments.values()].sort((a, b) => byName(a.paymentMethod, b.paymentMethod) || byName(a.paymentBrand, b.paymentBrand)),
    byTaxRate: [...rates.values()].sort((a, b) => a.taxRate - b.taxRate),
    refunds: { refunds: refunds.length, total: given },
  };
}
