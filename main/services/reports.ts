import type { DailyReport, DailyReportQuery } from '../../shared/api/reports.js';
import { DEFAULT_TIME_ZONE, localDayBounds } from '../../shared/time-zones.js';
import { reconcileCardTotals } from '../rules/card-reconciliation.js';
import { assembleDailyTotals } from '../rules/daily-totals.js';
import type { DailySalesStore, SaleWindow } from '../storage/daily-sales.js';
import type { PaymentStore } from '../storage/payments.js';
import type { SaleFlagStore } from '../storage/sale-flags.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import { ValidationFailed } from './errors.js';

export function createReportService(deps: { sales: DailySalesStore; stores: StoreStore; saleFlags: SaleFlagStore; payments: Pick<PaymentStore, 'brandTotals'> }) {
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
      const totals = assembleDailyTotals(sales.orderGroups(...range), sales.countedOrders(...range), saleOf);
      // The terminals' side is added by whoever can ask them (GET /reports/daily); here it is unknown.
      const byBrand = reconcileCardTotals(deps.payments.brandTotals(...range), undefined);
      const card = { byBrand, total: byBrand.reduce((sum, b) => sum + b.total, 0), terminalTotal: null, difference: null, terminals: [] };
      return { store: store.id, date: query.date, timeZone, ...totals, priceDeviations: saleFlags.linesOfDay(...range), lateSales: saleFlags.lateOfDay(...range), card };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
