import type { Product } from '../../shared/api/products.js';
import { withMinimumAge } from '../../shared/minimum-age.js';
import type { PricedProduct } from '../../shared/order-pricing.js';
import { columnMapping, type ColumnMap } from './column-map.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

/** A product as stored, in API field names. `instance` is the organization id. */
export type ProductRecord = Product;

const FIELDS = {
  id: ['id', 'text'],
  externalId: ['external_id', 'text'],
  name: ['name', 'text'],
  price: ['price', 'number'],
  supplier: ['supplier', 'text'],
  taxCategory: ['tax_category', 'text'],
  category: ['category', 'text'],
  declarations: ['declarations', 'text'],
  barcode: ['barcode', 'text'],
  barcodeAliases: ['barcode_aliases', 'json'],
  depositProduct: ['deposit_product', 'number'],
  depositProductLabel: ['deposit_product_label', 'text'],
  description: ['description', 'text'],
  salePrice: ['sale_price', 'number'],
  salePercentage: ['sale_percentage', 'number'],
  salePriceDateFrom: ['sale_price_date_from', 'text'],
  salePriceDateTo: ['sale_price_date_to', 'text'],
  costPrice: ['cost_price', 'number'],
  margin: ['margin', 'number'],
  showOnScreen: ['show_on_screen', 'bool'],
  ageRestriction: ['age_restriction', 'bool'],
  minimumAge: ['minimum_age', 'number'],
  showOnScale: ['show_on_scale', 'bool'],
  saleStop: ['sale_stop', 'bool'],
  deactivated: ['deactivated', 'bool'],
  openInput: ['open_input', 'bool'],
  imageUrl: ['image_url', 'text'],
  index: ['idx', 'number'],
  deleted: ['deleted', 'bool'],
  createdate: ['createdate', 'text'],
  lastupdate: ['lastupdate', 'text'],
  instance: ['org_id', 'text'],
} as const satisfies ColumnMap;
const mapping = columnMapping(FIELDS);

/** What a sale reads of a product: the fields that price its line and the flags that stop its sale. */
export type SaleProduct = PricedProduct & Pick<Product, 'deleted' | 'saleStop' | 'deactivated'>;
const SALE_FIELDS = [
  'name',
  'price',
  'taxCategory',
  'salePrice',
  'salePriceDateFrom',
  'salePriceDateTo',
  'depositProduct',
  'supplier',
  'category',
  'deleted',
  'saleStop',
  'deactivated',
] as const satisfies readonly (keyof SaleProduct)[];
const saleMapping = columnMapping(Object.fromEntries(SALE_FIELDS.map((field) => [field, FIELDS[field]])));

const COLUMNS = mapping.columns;
const AT_ID = COLUMNS.indexOf('id');
const AT_ALLOW = COLUMNS.length;
const AT_HIDE = COLUMNS.length + 1;

// `minimumAge` is kept and served exactly when `ageRestriction` is set; rows
// written before the column existed (or pulled from an upstream without it) read as 18.
const toRow = (p: ProductRecord) => mapping.toRow(withMinimumAge(p));

/** A read row holds the product's columns, then its category's store lists. */
function fromRow(raw: readonly unknown[]): ProductRecord {
  const product = withMinimumAge(mapping.fromRaw(raw) as ProductRecord);
  if (raw[AT_ALLOW] !== null) product.allowStore = JSON.parse(raw[AT_ALLOW] as string) as string[];
  if (raw[AT_HIDE] !== null) product.hideStore = JSON.parse(raw[AT_HIDE] as string) as string[];
  return product;
}

const SELECT_LIST = `${COLUMNS.map((c) => `p.${c}`).join(', ')}, c.allow_store AS c_allow_store, c.hide_store AS c_hide_store`;

const SELECT = `SELECT ${SELECT_LIST}
  FROM products p LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id`;

const STORE_FILTER = `AND NOT EXISTS (SELECT 1 FROM json_each(c.hide_store) WHERE value = @store)
  AND (c.allow_store IS NULL OR EXISTS (SELECT 1 FROM json_each(c.allow_store) WHERE value = @store))`;

// CROSS JOIN keeps the alias table outermost: the planner would otherwise walk
// every product in id order to skip the sort.
const ALIAS_SELECT = `SELECT ${SELECT_LIST}
  FROM product_alias_codes a CROSS JOIN products p ON p.id = a.product_id
  LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id`;

/**
 * Where a page's rows come from: active products, those with a barcode, those
 * with an alias code (each in id order), or every row changed since a time,
 * soft-deleted ones included (in `lastupdate, id` order). `order` is the order
 * of the index each one walks, so that paging never needs a sort.
 */
interface PageSourceSql {
  from: string;
  /** Condition of the first page, where a cursor's condition does not apply. */
  first?: string;
  after: string;
  order: string;
}

const SOURCES: Record<'all' | 'barcode' | 'alias' | 'changed', PageSourceSql> = {
  all: { from: `${SELECT} WHERE p.org_id = @orgId AND p.deleted = 0`, after: 'p.id > @afterId', order: 'p.id' },
  barcode: {
    from: `SELECT ${SELECT_LIST}
      FROM products p INDEXED BY products_org_barcode LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id
      WHERE p.org_id = @orgId AND p.barcode = @barcode AND p.deleted = 0`,
    after: 'p.id > @afterId',
    order: 'p.id',
  },
  alias: {
    from: `${ALIAS_SELECT} WHERE a.org_id = @orgId AND a.code = @barcode AND p.deleted = 0`,
    after: 'a.product_id > @afterId',
    order: 'a.product_id',
  },
  changed: {
    from: `SELECT ${SELECT_LIST}
      FROM products p INDEXED BY products_org_changed LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id
      WHERE p.org_id = @orgId`,
    // A cursor's row is already later than the start, and the index range begins right after it.
    first: 'p.lastupdate > @changedSince',
    after: '(p.lastupdate, p.id) > (@afterKey, @afterId)',
    order: 'p.lastupdate, p.id',
  },
};
type PageSource = keyof typeof SOURCES;

const idOf = (raw: unknown[]) => raw[AT_ID] as string;
/** SQLite orders TEXT by its UTF-8 bytes; merged pages must agree with `id > @afterId`. */
const byIdOrder = (a: unknown[], b: unknown[]) => Buffer.compare(Buffer.from(idOf(a)), Buffer.from(idOf(b)));

export interface ProductPageQuery {
  orgId: string;
  /** Serve rows after this one: its id, and its `lastupdate` when paging `changedSince`. */
  afterId?: string | undefined;
  afterKey?: string | undefined;
  limit: number;
  store?: string | undefined;
  /** Exact, already lowercased barcode or alias code. */
  barcode?: string | undefined;
  /** Match `barcode` against product barcodes only, not alias codes. */
  barcodeOnly?: boolean | undefined;
  /** Only products whose `showOnScale` is set (true) or not (false). */
  showOnScale?: boolean | undefined;
  /** Only products whose `showOnScreen` is set (true) or not (false). */
  showOnScreen?: boolean | undefined;
  /** Every row whose `lastupdate` is later, soft-deleted ones included (UTC ISO with milliseconds). */
  changedSince?: string | undefined;
}

const flagFilter = (column: string, wanted: boolean | undefined) =>
  wanted === undefined ? '' : wanted ? `AND p.${column} = 1` : `AND p.${column} IS NOT 1`;

export function createProductStore(db: Db) {
  const insert = db.prepare(`INSERT INTO products (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE products SET ${COLUMNS.filter((c) => c !== 'id' && c !== 'org_id').map((c) => `${c} = @${c}`).join(', ')}
      WHERE id = @id AND org_id = @org_id`,
  );
  const byId = db.prepare<[string, string], unknown[]>(`${SELECT} WHERE p.id = ? AND p.org_id = ?`).raw(true);
  const forSale = db
    .prepare<[string, string], unknown[]>(`SELECT ${saleMapping.columns.join(', ')} FROM products WHERE id = ? AND org_id = ?`)
    .raw(true);
  // The id list drives the join (CROSS JOIN keeps it outermost): one primary-key probe per id, in list order.
  const activeByIds = db
    .prepare<[string, string], unknown[]>(
      `SELECT ${SELECT_LIST}
         FROM json_each(?) AS j CROSS JOIN products p ON p.id = j.value AND p.org_id = ? AND p.deleted = 0
         LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id
        ORDER BY j.key`,
    )
    .raw(true);
  const clearCodes = db.prepare('DELETE FROM product_alias_codes WHERE product_id = ?');
  const addCode = db.prepare('INSERT OR IGNORE INTO product_alias_codes (org_id, code, product_id) VALUES (?, ?, ?)');
  const activeOfOrg = db.prepare<[string], unknown[]>(`${SELECT} WHERE p.org_id = ? AND p.deleted = 0 ORDER BY p.id`).raw(true);

  // One statement per combination of filters, prepared on first use.
  const pageStatements = new Map<string, ReturnType<Db['prepare']>>();
  const pageRows = (source: PageSource, q: ProductPageQuery, params: Record<string, unknown>) => {
    const variant = `${source}|${q.afterId !== undefined}|${q.store !== undefined}|${q.showOnScale}|${q.showOnScreen}`;
    let statement = pageStatements.get(variant);
    if (!statement) {
      const { from, first, after, order } = SOURCES[source];
      statement = db
        .prepare(
          `${from}
           ${q.afterId !== undefined ? `AND ${after}` : first === undefined ? '' : `AND ${first}`}
           ${q.store !== undefined ? STORE_FILTER : ''}
           ${flagFilter('show_on_scale', q.showOnScale)}
           ${flagFilter('show_on_screen', q.showOnScreen)}
           ORDER BY ${order} LIMIT ${pageLimit('@limit')}`,
        )
        .raw(true);
      pageStatements.set(variant, statement);
    }
    return statement.all(params) as unknown[][];
  };

  const writeCodes = (p: ProductRecord) => {
    clearCodes.run(p.id);
    for (const alias of p.barcodeAliases ?? []) addCode.run(p.instance, alias.code, p.id);
  };

  return {
    insert(p: ProductRecord): void {
      insert.run(toRow(p));
      writeCodes(p);
    },
    /** Replaces every stored field of an existing product. */
    replace(p: ProductRecord): void {
      update.run(toRow(p));
      writeCodes(p);
    },
    /** The active ones of the given products, in the order of `ids` (search results come ranked). */
    activeByIds(orgId: string, ids: readonly string[]): ProductRecord[] {
      return activeByIds.all(JSON.stringify(ids), orgId).map((row) => fromRow(row));
    },
    get(orgId: string, id: string): ProductRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** A product as a sale reads it: without its category's store lists, aliases and the rest, read on every pushed sale line. */
    forSale(orgId: string, id: string): SaleProduct | undefined {
      const raw = forSale.get(id, orgId);
      return raw ? (saleMapping.fromRaw(raw) as SaleProduct) : undefined;
    },
    page(q: ProductPageQuery): ProductRecord[] {
      const params: Record<string, unknown> = { orgId: q.orgId, limit: q.limit };
      if (q.afterId !== undefined) Object.assign(params, { afterId: q.afterId, afterKey: q.afterKey ?? '' });
      if (q.store !== undefined) params.store = q.store;
      if (q.changedSince !== undefined) return pageRows('changed', q, { ...params, changedSince: q.changedSince }).map((row) => fromRow(row));
      if (q.barcode === undefined) return pageRows('all', q, params).map((row) => fromRow(row));
      params.barcode = q.barcode;
      // Two index walks merged here: one query over both tables costs several times as much.
      if (q.barcodeOnly) return pageRows('barcode', q, params).map((row) => fromRow(row));
      const rows = [...pageRows('barcode', q, params), ...pageRows('alias', q, params)].sort(byIdOrder);
      const unique = rows.filter((row, i) => i === 0 || idOf(row) !== idOf(rows[i - 1]!));
      return unique.slice(0, q.limit).map((row) => fromRow(row));
    },
    /** Every active product of an organization, in id order, read lazily. */
    *iterateActive(orgId: string): Generator<ProductRecord> {
      for (const row of activeOfOrg.iterate(orgId)) yield fromRow(row);
    },
  };
}

export type ProductStore = ReturnType<typeof createProductStore>;
