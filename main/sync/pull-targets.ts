import type { BlockedIdentity } from '../../shared/api/identity-logs.js';
import type { Category } from '../../shared/api/categories.js';
import type { Store } from '../../shared/api/stores.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import { withMinimumAge } from '../../shared/minimum-age.js';
import type { Services } from '../services/index.js';
import type { ProductRecord } from '../storage/products.js';
import type { SyncKind } from './resources.js';

type Row = Record<string, unknown>;

/** How pulled records of one kind are read and written locally, without outbox entries. */
export interface PullTarget {
  kind: SyncKind;
  /** Collection path of the v1 API. */
  path: string;
  /** Whether the list pages by cursor (suppliers come as one list of up to 5000). */
  paged: boolean;
  /** Fields that stay local: bookkeeping, and read-only copies the local server computes. */
  keep: string[];
  /**
   * The record in the form the local store keeps it, so that an upstream
   * record that differs only in form (an older upstream without a newer
   * field's default) compares equal to the stored one and is not rewritten.
   */
  stored?(record: Row): Row;
  /** Reads the record, also a soft-deleted one. */
  get(orgId: string, id: string): Row | undefined;
  write(orgId: string, record: Row, existed: boolean, now: string): void;
}

const BOOKKEEPING = ['id', 'instance', 'organizationId', 'createdate', 'lastupdate'];

/** The catalog kinds a pull brings in, in an order where references point to kinds already pulled. */
export function pullTargets(stores: Services['stores'], withBlockedIdentities: boolean): PullTarget[] {
  const targets: PullTarget[] = [
    {
      kind: 'store',
      path: '/stores',
      paged: true,
      keep: BOOKKEEPING,
      get: (orgId, id) => stores.retailStores.get(orgId, id),
      write: (orgId, record, existed, now) => {
        const store = { ...record, instance: orgId, lastupdate: now } as Store;
        if (existed) stores.retailStores.replace(store);
        else stores.retailStores.insert(store);
      },
    },
    {
      kind: 'supplier',
      path: '/suppliers',
      paged: false,
      keep: BOOKKEEPING,
      get: (orgId, id) => stores.suppliers.get(orgId, id),
      write: (orgId, record, existed, now) => {
        const supplier = { ...record, organizationId: orgId } as Supplier;
        if (existed) stores.suppliers.replace(supplier, now);
        else stores.suppliers.insert(supplier, now);
      },
    },
    {
      kind: 'category',
      path: '/categories',
      paged: true,
      keep: BOOKKEEPING,
      get: (orgId, id) => stores.categories.get(orgId, id),
      write: (orgId, record, existed, now) => {
        if (existed) stores.categories.replace(orgId, record as Category, now);
        else stores.categories.insert(orgId, record as Category, now);
      },
    },
    {
      kind: 'product',
      path: '/products',
      paged: true,
      keep: [...BOOKKEEPING, 'allowStore', 'hideStore'],
      stored: withMinimumAge,
      get: (orgId, id) => stores.products.get(orgId, id),
      write: (orgId, record, existed, now) => {
        const product = { ...record, instance: orgId, lastupdate: now } as ProductRecord;
        if (existed) stores.products.replace(product);
        else stores.products.insert({ ...product, createdate: product.createdate ?? now });
      },
    },
  ];
  if (withBlockedIdentities) {
    targets.push({
      kind: 'blocked-identity',
      path: '/identity-logs/blocked',
      paged: true,
      keep: ['id'],
      get: (orgId, id) => stores.identityLogs.getBlocked(orgId, id),
      write: (orgId, record, existed, now) => {
        if (existed) stores.identityLogs.updateBlocked(orgId, record as BlockedIdentity, now);
        else stores.identityLogs.insertBlocked(orgId, record as BlockedIdentity, now);
      },
    });
  }
  return targets;
}
