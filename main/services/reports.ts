import type { CardWarning, DailyReport, DailyReportQuery } from '../../shared/api/reports.js';
import { DEFAULT_TIME_ZONE, localDayBounds } from '../../shared/time-zones.js';
import { reconcileCardTotals, sumByBrand } from '../rules/card-reconciliation.js';
import { subtractRefunds } from '../rules/day-refunds.js';
import { assembleDailyTotals } from '../rules/daily-totals.js';
import type { DailySalesStore, SaleWindow } from '../storage/daily-sales.js';
import type { PaymentRecord, PaymentStore } from '../storage/payments.js';
import type { SaleFlagStore } from '../storage/sale-flags.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import { ValidationFailed } from './errors.js';

/** A payment that took money no sale accounts for, as the report flags it. */
const cardWarningOf = (p: PaymentRecord): CardWarning => ({
  kind: p.refused ? 'reversal-pending' : 'payment-without-order',
  payment: p.id,
  amount: p.charged?.amount ?? p.amount,
  currency: p.charged?.currency ?? p.currency,
  createdAt: p.createdAt,
  message: p.message,
});

export function createReportService(deps: { sales: DailySalesStore; stores: StoreStore; saleFlags: SaleFlagStore; payments: Pick<PaymentStore, 'brandTotals' | 'brandRefunds' | 'withoutSale'> }) {
  const { sales, stores, saleFlags } = deps;

  return {
    /** The store's takings of one local day. A deleted store still has its past days. */
    daily(caller: Caller, query: DailyReportQuery): DailyReport {
      const store = stores.get(caller.orgId, query.store);
      if (!store) throw new ValidationFailed({ store: [`no store ${JSON.stringify(query.store)} in this organization`] });
      const timeZone = store.timeZone ?? DEFAULT_TIME_ZONE;
      const { start, end } = localDayBounds(query.date, timeZone);
      const range = [caller.orgId, store.id, new Date(start).toISOString(), new Date(end).toISOString()] as const;
      // A day sells the same products again and again: each one's catalog prices are read once.
      const saleWindows = new Map<string, SaleWindow | undefined>();
      const saleOf = (productId: string) => {
        if (!saleWindows.has(productId)) saleWindows.set(productId, sales.saleWindow(caller.orgId, productId));
        return saleWindows.get(productId);
      };
      const totals = subtractRefunds(assembleDailyTotals(sales.orderGroups(...range), sales.countedOrders(...range), saleOf), sales.refunds(...range));
      // The terminals' side is added by whoever can ask them (GET /reports/daily); here it is unknown.
      const ours = sumByBrand([...deps.payments.brandTotals(...range), ...deps.payments.brandRefunds(...range).map((r) => ({ ...r, payments: 0, total: -r.total }))]);
      const byBrand = reconcileCardTotals(ours, undefined);
      const card = { byBrand, total: byBrand.reduce((sum, b) => sum + b.total, 0), terminalTotal: null, difference: null, terminals: [] };
      const cardWarnings = deps.payments.withoutSale(...range).map(cardWarningOf);
      return { store: store.id, date: query.date, timeZone, ...totals, priceDeviations: saleFlags.linesOfDay(...range), lateSales: saleFlags.lateOfDay(...range), cardWarnings, card };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
