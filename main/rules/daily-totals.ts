import { COUNTED_PAYMENT_STATES, type DailyReport } from '../../shared/api/reports.js';
import { isOnSale, multiplyCents } from '../../shared/order-pricing.js';
import type { OrderLine } from '../../shared/api/orders.js';
import type { CountedOrder, OrderGroup, SaleWindow } from '../storage/daily-sales.js';

/** The figures of a report that come from the orders alone. */
export type DailyTotals = Omit<DailyReport, 'store' | 'date' | 'timeZone' | 'priceDeviations' | 'lateSales' | 'card' | 'refunds' | 'cardWarnings'>;

const isCounted = (state: string) => (COUNTED_PAYMENT_STATES as readonly string[]).includes(state);

const byName = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);

/**
 * What a line saved against the regular price, when it was sold at the
 * product's sale price. Orders keep only the price paid, so the regular price
 * comes from the catalog as it is now; a line priced otherwise counts 0.
 */
export function discountOf(line: OrderLine, orderDate: string, sale: SaleWindow | undefined): number {
  if (!sale || !isOnSale(sale, orderDate)) return 0;
  if (line.price !== multiplyCents(sale.salePrice, line.quantity)) return 0;
  return Math.max(0, multiplyCents(sale.price, line.quantity) - line.price);
}

/** Counted orders by payment method and brand: a refunded sale and a paid one of the same card brand share a row. */
function paymentRows(counted: readonly OrderGroup[]): Map<string, DailyTotals['byPaymentMethod'][number]> {
  const rows = new Map<string, DailyTotals['byPaymentMethod'][number]>();
  for (const g of counted) {
    const key = `${g.paymentMethod}\n${g.paymentBrand}`;
    const row = rows.get(key) ?? { paymentMethod: g.paymentMethod, paymentBrand: g.paymentBrand, sales: 0, total: 0 };
    row.sales += g.sales;
    row.total += g.total;
    rows.set(key, row);
  }
  return rows;
}

/**
 * Puts a day's sums together. Counted are the orders in payment state
 * `successful` (or refunded since, in part or whole) that are not deleted; every amount is a sum of what the orders
 * stored (no rounding happens here), so the totals match the orders to the cent.
 */
export function assembleDailyTotals(
  orders: readonly OrderGroup[],
  countedOrders: readonly CountedOrder[],
  saleOf: (productId: string) => SaleWindow | undefined,
): DailyTotals {
  const counted = orders.filter((g) => !g.deleted && isCounted(g.paymentState));
  const deleted = orders.filter((g) => g.deleted);
  const others = new Map<string, { paymentState: string; sales: number; total: number }>();
  for (const group of orders) {
    if (group.deleted || isCounted(group.paymentState)) continue;
    const other = others.get(group.paymentState) ?? { paymentState: group.paymentState, sales: 0, total: 0 };
    other.sales += group.sales;
    other.total += group.total;
    others.set(group.paymentState, other);
  }
  const sum = (groups: readonly { sales: number; total: number }[], field: 'sales' | 'total') => groups.reduce((acc, g) => acc + g[field], 0);
  const rates = new Map<number, { taxRate: number; gross: number; net: number; tax: number }>();
  const discounts = { lines: 0, amount: 0 };
  let deposits = 0;
  for (const order of countedOrders) {
    for (const line of order.lines) {
      const rate = rates.get(line.taxRate) ?? { taxRate: line.taxRate, gross: 0, net: 0, tax: 0 };
      rate.gross += line.price;
      rate.net += line.netPrice;
      rate.tax += line.tax;
      rates.set(line.taxRate, rate);
      deposits += line.deposit;
      const discount = discountOf(line, order.orderDate, saleOf(line.productId));
      if (discount > 0) {
        discounts.lines += 1;
        discounts.amount += discount;
      }
    }
  }

  return {
    sales: sum(counted, 'sales'),
    total: sum(counted, 'total'),
    byPaymentMethod: [...paymentRows(counted).values()].sort((a, b) => byName(a.paymentMethod, b.paymentMethod) || byName(a.paymentBrand, b.paymentBrand)),
    byTaxRate: [...rates.values()].sort((a, b) => a.taxRate - b.taxRate),
    deposits,
    discounts,
    otherPaymentStates: [...others.values()].sort((a, b) => byName(a.paymentState, b.paymentState)),
    deletedOrders: { sales: sum(deleted, 'sales'), total: sum(deleted, 'total') },
    firstSaleAt: counted.reduce<string | null>((first, g) => (first === null || g.firstAt < first ? g.firstAt : first), null),
    lastSaleAt: counted.reduce<string | null>((last, g) => (last === null || g.lastAt > last ? g.lastAt : last), null),
  };
}
