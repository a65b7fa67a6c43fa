import type { Category, CategoryCreate, CategoryListQuery, CategoryUpdate } from '../../shared/api/categories.js';
import type { ListMeta } from '../../shared/api/common.js';
import { newId } from '../rules/ids.js';
import type { CategoryStore } from '../storage/categories.js';
import type { Db } from '../storage/database.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { StoreStore } from '../storage/stores.js';
import type { Caller } from './caller.js';
import { feedPage, feedReadTime, feedStart } from './change-feed.js';
import type { Clock } from './clock.js';
import { NotFound } from './errors.js';
import { readCursor, toPage } from './paging.js';
import { applyPartialUpdate } from './partial-update.js';
import { requireStores } from './store-references.js';
import { immediateTransaction } from '../storage/transactions.js';

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** Store lists keep their first occurrence of each id; an empty list stays empty (it removes the field). */
function normalizeFields<T extends CategoryUpdate>(fields: T): T {
  const out = { ...fields };
  if (fields.hideStore !== undefined) out.hideStore = unique(fields.hideStore);
  if (fields.allowStore !== undefined) out.allowStore = unique(fields.allowStore);
  return out;
}

/** An empty store list is not stored: the field is absent on read. */
function finish(category: Category): Category {
  const out = { ...category };
  if (out.hideStore?.length === 0) delete out.hideStore;
  if (out.allowStore?.length === 0) delete out.allowStore;
  return out;
}

export function createCategoryService(deps: { db: Db; categories: CategoryStore; stores: StoreStore; outbox: OutboxStore; clock: Clock }) {
  const { db, categories, stores, outbox, clock } = deps;

  const requireStoreLists = (orgId: string, fields: CategoryUpdate): void => {
    requireStores(stores, orgId, 'hideStore', fields.hideStore);
    requireStores(stores, orgId, 'allowStore', fields.allowStore);
  };

  const mustGet = (orgId: string, id: string): Category => {
    const category = categories.get(orgId, id);
    if (!category) throw new NotFound('Category', id);
    return category;
  };

  return {
    create(caller: Caller, body: CategoryCreate): string {
      const fields = normalizeFields(body);
      requireStoreLists(caller.orgId, fields);
      const id = newId();
      const now = clock.now().toISOString();
      const record = finish({ ...fields, id, deleted: false, createdate: now });
      immediateTransaction(db, () => {
        categories.insert(caller.orgId, record, now);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'category', resourceId: id, operation: 'create', body: fields, createdAt: now });
      });
      return id;
    },

    get(caller: Caller, id: string): Category {
      return mustGet(caller.orgId, id);
    },

    update(caller: Caller, id: string, patch: CategoryUpdate): void {
      const fields = normalizeFields(patch);
      requireStoreLists(caller.orgId, fields);
      applyPartialUpdate(deps, {
        caller,
        resource: 'category',
        id,
        fields,
        read: () => mustGet(caller.orgId, id),
        write: (current, now) => categories.replace(caller.orgId, finish({ ...current, ...fields }), now),
      });
    },

    /** Active categories in id order, paged by keyset cursor; with `updatedSince`, the change feed. */
    list(caller: Caller, query: CategoryListQuery): { data: Category[]; meta: ListMeta } {
      if (query.updatedSince !== undefined) {
        const completeUntil = feedReadTime(clock);
        const rows = categories.changedPage({ orgId: caller.orgId, ...feedStart(query.updatedSince, query.cursor), limit: query.limit + 1 });
        return feedPage(rows, query.limit, completeUntil, (c) => c.id);
      }
      const after = readCursor(query.cursor);
      const rows = categories.page({ orgId: caller.orgId, afterId: after?.id, limit: query.limit + 1 });
      return toPage(rows, query.limit, (c) => ({ key: c.id, id: c.id }));
    },
  };
}

export type CategoryService = ReturnType<typeof createCategoryService>;
