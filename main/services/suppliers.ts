import type { ListMeta } from '../../shared/api/common.js';
import type { Supplier, SupplierCreate, SupplierListQuery, SupplierUpdate } from '../../shared/api/suppliers.js';
import { newId } from '../rules/ids.js';
import type { Db } from '../storage/database.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { SupplierStore } from '../storage/suppliers.js';
import type { Caller } from './caller.js';
import { feedPage, feedReadTime, feedStart } from './change-feed.js';
import type { Clock } from './clock.js';
import { NotFound } from './errors.js';
import { applyPartialUpdate } from './partial-update.js';
import { immediateTransaction } from '../storage/transactions.js';

export function createSupplierService(deps: { db: Db; suppliers: SupplierStore; outbox: OutboxStore; clock: Clock }) {
  const { db, suppliers, outbox, clock } = deps;

  const mustGet = (orgId: string, id: string): Supplier => {
    const supplier = suppliers.get(orgId, id);
    if (!supplier) throw new NotFound('Supplier', id);
    return supplier;
  };

  return {
    create(caller: Caller, body: SupplierCreate): string {
      const id = newId();
      const now = clock.now().toISOString();
      const record: Supplier = { ...body, id, organizationId: caller.orgId, deleted: false, createdate: now };
      immediateTransaction(db, () => {
        suppliers.insert(record, now);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'supplier', resourceId: id, operation: 'create', body, createdAt: now });
      });
      return id;
    },

    get(caller: Caller, id: string): Supplier {
      return mustGet(caller.orgId, id);
    },

    update(caller: Caller, id: string, patch: SupplierUpdate): void {
      applyPartialUpdate(deps, {
        caller,
        resource: 'supplier',
        id,
        fields: patch,
        read: () => mustGet(caller.orgId, id),
        write: (current, now) => suppliers.replace({ ...current, ...patch }, now),
      });
    },

    /** Not paged: up to `limit` active suppliers by name. With `updatedSince`, the change feed, which is paged. */
    list(caller: Caller, query: SupplierListQuery): { data: Supplier[]; meta: ListMeta } {
      if (query.updatedSince !== undefined) {
        const completeUntil = feedReadTime(clock);
        const rows = suppliers.changedPage({ orgId: caller.orgId, ...feedStart(query.updatedSince, query.cursor), limit: query.limit + 1 });
        return feedPage(rows, query.limit, completeUntil, (s) => s.id);
      }
      const data = suppliers.listActiveByName(caller.orgId, query.limit);
      return { data, meta: { total: data.length, returned: data.length, limit: query.limit } };
    },
  };
}

export type SupplierService = ReturnType<typeof createSupplierService>;
