import type { OrderLine } from '../../shared/api/orders.js';
import type { DailyReport, DailyReportQuery } from '../../shared/api/reports.js';
import { isOnSale, multiplyCents } from '../../shared/order-pricing.js';
import { DEFAULT_TIME_ZONE, localDayBounds } from '../../shared/time-zones.js';
import { sumDailyTotals } from '../rules/daily-totals.js';
import type { OrderStore } from '../storage/orders.js';
import type { ProductRecord, ProductStore } from '../storage/products.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import { ValidationFailed } from './errors.js';

export function createReportService(deps: { orders: OrderStore; stores: StoreStore; products: ProductStore }) {
  const { orders, stores, products } = deps;

  /**
   * What a line saved against the regular price, when it was sold at the
   * product's sale price. Orders keep only the price paid, so the regular price
   * comes from the catalog as it is now; a line priced otherwise counts 0.
   */
  const discountsOf = (orgId: string) => {
    const catalog = new Map<string, ProductRecord | undefined>();
    return (line: OrderLine, orderDate: string): number => {
      if (!catalog.has(line.productId)) catalog.set(line.productId, products.get(orgId, line.productId));
      const product = catalog.get(line.productId);
      if (!product || product.salePrice === undefined || !isOnSale(product, orderDate)) return 0;
      if (line.price !== multiplyCents(product.salePrice, line.quantity)) return 0;
      return Math.max(0, multiplyCents(product.price, line.quantity) - line.price);
    };
  };

  return {
    /** The store's takings of one local day. A deleted store still has its past days. */
    daily(caller: Caller, query: DailyReportQuery): DailyReport {
      const store = stores.get(caller.orgId, query.store);
      if (!store) throw new ValidationFailed({ store: [`no store ${JSON.stringify(query.store)} in this organization`] });
      const timeZone = store.timeZone ?? DEFAULT_TIME_ZONE;
      const { start, end } = localDayBounds(query.date, timeZone);
      const dayOrders = orders.ofStoreBetween(caller.orgId, store.id, new Date(start).toISOString(), new Date(end).toISOString());
      return { store: store.id, date: query.date, timeZone, ...sumDailyTotals(dayOrders, discountsOf(caller.orgId)) };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
