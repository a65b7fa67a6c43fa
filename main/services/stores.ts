import type { ListMeta } from '../../shared/api/common.js';
import type { Store, StoreCreate, StoreListQuery, StoreUpdate } from '../../shared/api/stores.js';
import { newId } from '../rules/ids.js';
import { applyNullablePatch } from '../rules/nullable-patch.js';
import type { Db } from '../storage/database.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import { feedPage, feedReadTime, feedStart } from './change-feed.js';
import type { Clock } from './clock.js';
import { NotFound } from './errors.js';
import { readCursor, toPage } from './paging.js';
import { applyPartialUpdate } from './partial-update.js';
import { immediateTransaction } from '../storage/transactions.js';

export function createStoreService(deps: { db: Db; stores: StoreStore; outbox: OutboxStore; clock: Clock }) {
  const { db, stores, outbox, clock } = deps;

  const mustGet = (orgId: string, id: string): Store => {
    const store = stores.get(orgId, id);
    if (!store) throw new NotFound('Store', id);
    return store;
  };

  /** A kiosk key sees its own store only: another store is answered like an unknown one. */
  const mustSee = (caller: Caller, id: string): Store => {
    if (caller.store && caller.store !== id) throw new NotFound('Store', id);
    return mustGet(caller.orgId, id);
  };

  return {
    create(caller: Caller, body: StoreCreate): string {
      const id = newId();
      const now = clock.now().toISOString();
      const record: Store = { ...body, id, deleted: false, createdate: now, lastupdate: now, instance: caller.orgId };
      immediateTransaction(db, () => {
        stores.insert(record);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'store', resourceId: id, operation: 'create', body, createdAt: now });
      });
      return id;
    },

    get(caller: Caller, id: string): Store {
      return mustSee(caller, id);
    },

    update(caller: Caller, id: string, patch: StoreUpdate): void {
      applyPartialUpdate(deps, {
        caller,
        resource: 'store',
        id,
        fields: patch,
        read: () => mustGet(caller.orgId, id),
        write: (current, now) => stores.replace({ ...applyNullablePatch(current, patch), lastupdate: now }),
      });
    },

    /** Active stores in id order, paged by keyset cursor; with `updatedSince`, the change feed. */
    list(caller: Caller, query: StoreListQuery): { data: Store[]; meta: ListMeta } {
      if (caller.store) {
        const own = stores.get(caller.orgId, caller.store);
        const data = own && (!own.deleted || query.updatedSince !== undefined) ? [own] : [];
        return { data, meta: { total: data.length, returned: data.length, limit: query.limit } };
      }
      if (query.updatedSince !== undefined) {
        const completeUntil = feedReadTime(clock);
        const rows = stores.changedPage({ orgId: caller.orgId, ...feedStart(query.updatedSince, query.cursor), limit: query.limit + 1 });
        return feedPage(rows, query.limit, completeUntil, (s) => s.id);
      }
      const after = readCursor(query.cursor);
      const rows = stores.page({ orgId: caller.orgId, afterId: after?.id, limit: query.limit + 1 });
      return toPage(rows, query.limit, (s) => ({ key: s.id, id: s.id }));
    },
  };
}

export type StoreService = ReturnType<typeof createStoreService>;
