import { createApiKeyStore } from '../storage/api-keys.js';
import type { Db } from '../storage/database.js';
import { createOrganizationStore } from '../storage/organizations.js';
import { createOutboxStore } from '../storage/outbox.js';
import { createProductStore } from '../storage/products.js';
import type { Clock } from './clock.js';
import { createOrganizationService } from './organizations.js';
import { createProductService, type ProductListener, type ProductSearch } from './products.js';

/** Builds every storage module and service over one database. */
export function createServices(deps: { db: Db; clock: Clock; search?: ProductSearch; productListeners?: ProductListener[] }) {
  const { db, clock } = deps;
  const stores = {
    organizations: createOrganizationStore(db),
    apiKeys: createApiKeyStore(db),
    outbox: createOutboxStore(db),
    products: createProductStore(db),
  };
  return {
    stores,
    organizations: createOrganizationService({ db, clock, organizations: stores.organizations, apiKeys: stores.apiKeys }),
    products: createProductService({
      db,
      clock,
      products: stores.products,
      outbox: stores.outbox,
      ...(deps.search ? { search: deps.search } : {}),
      listeners: deps.productListeners ?? [],
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
