import type { Category } from '../../shared/api/categories.js';
import { columnMapping, insertSql, replaceSql } from './column-map.js';
import { changedRows, type ChangedPageQuery } from './change-feed.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

// allow_store / hide_store are JSON arrays, NULL when empty: the product store
// filter in products.ts reads them in this form.
const mapping = columnMapping({
  id: ['id', 'text'],
  name: ['name', 'text'],
  externalId: ['external_id', 'text'],
  index: ['idx', 'number'],
  showOnScreen: ['show_on_screen', 'bool'],
  imageUrl: ['image_url', 'text'],
  marginMinPercent: ['margin_min_percent', 'number'],
  marginMaxPercent: ['margin_max_percent', 'number'],
  hideStore: ['hide_store', 'json'],
  allowStore: ['allow_store', 'json'],
  deleted: ['deleted', 'bool'],
  createdate: ['createdate', 'text'],
});

const COLUMNS = ['org_id', ...mapping.columns, 'lastupdate'];

type Row = Record<string, unknown>;

function toRow(orgId: string, category: Category, lastupdate: string): Row {
  const { hideStore, allowStore, ...rest } = category;
  return {
    ...mapping.toRow({
      ...rest,
      ...(hideStore && hideStore.length > 0 ? { hideStore } : {}),
      ...(allowStore && allowStore.length > 0 ? { allowStore } : {}),
    }),
    org_id: orgId,
    lastupdate,
  };
}

const fromRow = (row: Row) => mapping.fromRow(row) as Category;

export interface CategoryPageQuery {
  orgId: string;
  /** Serve rows with an id greater than this. */
  afterId?: string | undefined;
  limit: number;
}

export function createCategoryStore(db: Db) {
  const insert = db.prepare(insertSql('categories', COLUMNS));
  const replace = db.prepare(replaceSql('categories', COLUMNS));
  const byId = db.prepare<[string, string], Row>('SELECT * FROM categories WHERE id = ? AND org_id = ?');
  const page = db.prepare<[string, string, number], Row>(
    `SELECT * FROM categories WHERE org_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ${pageLimit('?')}`,
  );
  const changed = changedRows(db, 'categories');
  const listsOf = db.prepare<[string, string], { allow_store: unknown; hide_store: unknown }>(
    'SELECT allow_store, hide_store FROM categories WHERE id = ? AND org_id = ?',
  );
  const touchProducts = db.prepare('UPDATE products SET lastupdate = @now WHERE org_id = @orgId AND category = @id AND lastupdate < @now');
  /**
   * A product's store lists are its category's: when they change, so does
   * where the product shows, and its change-feed time moves with them, so a
   * feed read for one store (a label scale's) hears that it left or is back.
   */
  const touchWhenListsChange = (orgId: string, row: Row, before: { allow_store: unknown; hide_store: unknown } | undefined) => {
    const same = (before?.allow_store ?? null) === (row.allow_store ?? null) && (before?.hide_store ?? null) === (row.hide_store ?? null);
    if (!same) touchProducts.run({ orgId, id: row.id, now: row.lastupdate });
  };

  return {
    /** `lastupdate` is kept for synchronisation; it is not part of the Category shape. */
    insert(orgId: string, category: Category, lastupdate: string): void {
      const row = toRow(orgId, category, lastupdate);
      insert.run(row);
      touchWhenListsChange(orgId, row, undefined);
    },
    /** Replaces every stored field of an existing category. */
    replace(orgId: string, category: Category, lastupdate: string): void {
      const row = toRow(orgId, category, lastupdate);
      const before = listsOf.get(category.id, orgId);
      replace.run(row);
      touchWhenListsChange(orgId, row, before);
    },
    get(orgId: string, id: string): Category | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    page(q: CategoryPageQuery): Category[] {
      return page.all(q.orgId, q.afterId ?? '', q.limit).map(fromRow);
    },
    /** The change feed: categories changed after `q.since`, deleted ones included, with their `lastupdate`. */
    changedPage(q: ChangedPageQuery): { record: Category; lastupdate: string }[] {
      return changed(q).map(({ row, lastupdate }) => ({ record: fromRow(row), lastupdate }));
    },
  };
}

export type CategoryStore = ReturnType<typeof createCategoryStore>;
