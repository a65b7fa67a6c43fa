import { createProductSearch, type SearchBuildOptions } from '../search/product-search.js';
import { createApiKeyStore } from '../storage/api-keys.js';
import { createCatalogColumnStore } from '../storage/catalog-columns.js';
import { createCategoryStore } from '../storage/categories.js';
import { createDailySalesStore } from '../storage/daily-sales.js';
import type { Db } from '../storage/database.js';
import { dataVersion } from '../storage/data-version.js';
import { createIdentityLogStore } from '../storage/identity-logs.js';
import { createOrderStore } from '../storage/orders.js';
import { createOrganizationStore } from '../storage/organizations.js';
import { createOutboxStore } from '../storage/outbox.js';
import { createSaleFlagStore } from '../storage/sale-flags.js';
import { createProductStore } from '../storage/products.js';
import { createSearchSourceStore } from '../storage/search-sources.js';
import { createStoreStore } from '../storage/stores.js';
import { createSupplierStore } from '../storage/suppliers.js';
import { createCategoryService } from './categories.js';
import { createPaymentStore } from '../storage/payments.js';
import type { Clock } from './clock.js';
import { createIdentityLogService } from './identity-logs.js';
import { createOrderPayment } from './order-payment.js';
import { createOrderService } from './orders.js';
import { createOrganizationService } from './organizations.js';
import { createReportService } from './reports.js';
import { createProductService, type ProductListener, type ScaleLabelReader } from './products.js';
import { createStoreService } from './stores.js';
import { createSupplierService } from './suppliers.js';

/** Builds every storage module and service over one database. */
export function createServices(deps: { db: Db; clock: Clock; search?: SearchBuildOptions; productListeners?: ProductListener[]; scaleLabels?: ScaleLabelReader }) {
  const { db, clock } = deps;
  const stores = {
    organizations: createOrganizationStore(db),
    apiKeys: createApiKeyStore(db),
    outbox: createOutboxStore(db),
    products: createProductStore(db),
    suppliers: createSupplierStore(db),
    categories: createCategoryStore(db),
    retailStores: createStoreStore(db),
    orders: createOrderStore(db),
    identityLogs: createIdentityLogStore(db),
    saleFlags: createSaleFlagStore(db),
    payments: createPaymentStore(db),
    catalogColumns: createCatalogColumnStore(db),
  };
  // Nothing is read until `search.build()` or the first search: building services stays cheap for the CLI.
  const search = createProductSearch({
    sources: createSearchSourceStore(db),
    products: stores.products,
    organizations: stores.organizations,
    changedElsewhere: dataVersion(db),
    options: deps.search,
  });
  return {
    clock,
    stores,
    search,
    organizations: createOrganizationService({ db, clock, organizations: stores.organizations, apiKeys: stores.apiKeys, stores: stores.retailStores }),
    products: createProductService({
      db,
      clock,
      products: stores.products,
      categories: stores.categories,
      suppliers: stores.suppliers,
      stores: stores.retailStores,
      outbox: stores.outbox,
      search,
      listeners: [search, ...(deps.productListeners ?? [])],
      scaleLabels: deps.scaleLabels,
    }),
    suppliers: createSupplierService({ db, clock, suppliers: stores.suppliers, outbox: stores.outbox }),
    categories: createCategoryService({ db, clock, categories: stores.categories, stores: stores.retailStores, outbox: stores.outbox }),
    retailStores: createStoreService({ db, clock, stores: stores.retailStores, outbox: stores.outbox }),
    orders: createOrderService({
      db,
      clock,
      orders: stores.orders,
      products: stores.products,
      stores: stores.retailStores,
      outbox: stores.outbox,
      saleFlags: stores.saleFlags,
      payment: createOrderPayment(stores.payments),
    }),
    reports: createReportService({ sales: createDailySalesStore(db), stores: stores.retailStores, saleFlags: stores.saleFlags, payments: stores.payments }),
    identityLogs: createIdentityLogService({ db, clock, identityLogs: stores.identityLogs, stores: stores.retailStores, outbox: stores.outbox }),
  };
}

export type Services = ReturnType<typeof createServices>;
