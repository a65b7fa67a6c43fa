import { COUNTED_PAYMENT_STATE, type DailyReport, type PaymentTotal, type TaxRateTotal } from '../../shared/api/reports.js';
import type { OrderLine } from '../../shared/api/orders.js';
import type { ReportedOrder } from '../storage/orders.js';

/** The figures of a report that come from the orders alone. */
export type DailyTotals = Omit<DailyReport, 'store' | 'date' | 'timeZone'>;

/** Cents a line was sold below its regular price, or 0; the caller knows the catalog. */
export type DiscountOf = (line: OrderLine, orderDate: string) => number;

const byName = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * Adds up one day's orders. Counted are the orders in payment state
 * `successful` that are not deleted; every amount is a sum of what the orders
 * stored (no rounding happens here), so the totals match the orders to the cent.
 */
export function sumDailyTotals(orders: readonly ReportedOrder[], discountOf: DiscountOf): DailyTotals {
  const payments = new Map<string, PaymentTotal>();
  const rates = new Map<number, TaxRateTotal>();
  const otherStates = new Map<string, { paymentState: string; sales: number; total: number }>();
  const totals: DailyTotals = {
    sales: 0,
    total: 0,
    byPaymentMethod: [],
    byTaxRate: [],
    deposits: 0,
    discounts: { lines: 0, amount: 0 },
    otherPaymentStates: [],
    deletedOrders: { sales: 0, total: 0 },
    firstSaleAt: null,
    lastSaleAt: null,
  };

  for (const order of orders) {
    if (order.deleted) {
      totals.deletedOrders.sales += 1;
      totals.deletedOrders.total += order.price;
      continue;
    }
    if (order.paymentState !== COUNTED_PAYMENT_STATE) {
      const other = otherStates.get(order.paymentState) ?? { paymentState: order.paymentState, sales: 0, total: 0 };
      other.sales += 1;
      other.total += order.price;
      otherStates.set(order.paymentState, other);
      continue;
    }
    totals.sales += 1;
    totals.total += order.price;
    if (totals.firstSaleAt === null || order.orderDate < totals.firstSaleAt) totals.firstSaleAt = order.orderDate;
    if (totals.lastSaleAt === null || order.orderDate > totals.lastSaleAt) totals.lastSaleAt = order.orderDate;

    const method = order.paymentMethod ?? null;
    const brand = order.paymentBrand ?? null;
    const key = JSON.stringify([method, brand]);
    const payment = payments.get(key) ?? { paymentMethod: method, paymentBrand: brand, sales: 0, total: 0 };
    payment.sales += 1;
    payment.total += order.price;
    payments.set(key, payment);

    for (const line of order.products) {
      const rate = rates.get(line.taxRate) ?? { taxRate: line.taxRate, gross: 0, net: 0, tax: 0 };
      rate.gross += line.price;
      rate.net += line.netPrice;
      rate.tax += line.tax;
      rates.set(line.taxRate, rate);
      totals.deposits += line.deposit;
      const discount = discountOf(line, order.orderDate);
      if (discount > 0) {
        totals.discounts.lines += 1;
        totals.discounts.amount += discount;
      }
    }
  }

  totals.byPaymentMethod = [...payments.values()].sort(
    (a, b) => byName(a.paymentMethod, b.paymentMethod) || byName(a.paymentBrand, b.paymentBrand),
  );
  totals.byTaxRate = [...rates.values()].sort((a, b) => a.taxRate - b.taxRate);
  totals.otherPaymentStates = [...otherStates.values()].sort((a, b) => byName(a.paymentState, b.paymentState));
  return totals;
}
