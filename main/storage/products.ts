import type { BarcodeAlias, Product } from '../../shared/api/products.js';
import type { TaxCategory } from '../../shared/tax.js';
import type { Db } from './database.js';

/** A product as stored, in API field names. `instance` is the organization id. */
export type ProductRecord = Product;

interface ProductRow {
  id: string;
  org_id: string;
  external_id: string | null;
  name: string;
  price: number;
  supplier: string | null;
  tax_category: string;
  category: string | null;
  declarations: string | null;
  barcode: string;
  barcode_aliases: string | null;
  deposit_product: number | null;
  deposit_product_label: string | null;
  description: string | null;
  sale_price: number | null;
  sale_percentage: number | null;
  sale_price_date_from: string | null;
  sale_price_date_to: string | null;
  cost_price: number | null;
  margin: number | null;
  show_on_screen: number | null;
  age_restriction: number | null;
  show_on_scale: number | null;
  sale_stop: number | null;
  deactivated: number | null;
  open_input: number | null;
  image_url: string;
  idx: number | null;
  deleted: number;
  createdate: string;
  lastupdate: string;
  c_allow_store: string | null;
  c_hide_store: string | null;
}

const bool = (value: boolean | undefined): number | null => (value === undefined ? null : value ? 1 : 0);
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/** The one place where product columns map to API fields and back. */
function toRow(p: ProductRecord) {
  return {
    id: p.id,
    org_id: p.instance,
    external_id: orNull(p.externalId),
    name: p.name,
    price: p.price,
    supplier: orNull(p.supplier),
    tax_category: p.taxCategory,
    category: orNull(p.category),
    declarations: orNull(p.declarations),
    barcode: p.barcode,
    barcode_aliases: p.barcodeAliases && p.barcodeAliases.length > 0 ? JSON.stringify(p.barcodeAliases) : null,
    deposit_product: orNull(p.depositProduct),
    deposit_product_label: orNull(p.depositProductLabel),
    description: orNull(p.description),
    sale_price: orNull(p.salePrice),
    sale_percentage: orNull(p.salePercentage),
    sale_price_date_from: orNull(p.salePriceDateFrom),
    sale_price_date_to: orNull(p.salePriceDateTo),
    cost_price: orNull(p.costPrice),
    margin: orNull(p.margin),
    show_on_screen: bool(p.showOnScreen),
    age_restriction: bool(p.ageRestriction),
    show_on_scale: bool(p.showOnScale),
    sale_stop: bool(p.saleStop),
    deactivated: bool(p.deactivated),
    open_input: bool(p.openInput),
    image_url: p.imageUrl,
    idx: orNull(p.index),
    deleted: p.deleted ? 1 : 0,
    createdate: p.createdate,
    lastupdate: p.lastupdate,
  };
}

function fromRow(r: ProductRow): ProductRecord {
  const p: ProductRecord = {
    id: r.id,
    name: r.name,
    price: r.price,
    taxCategory: r.tax_category as TaxCategory,
    barcode: r.barcode,
    imageUrl: r.image_url,
    deleted: r.deleted === 1,
    createdate: r.createdate,
    lastupdate: r.lastupdate,
    instance: r.org_id,
  };
  if (r.external_id !== null) p.externalId = r.external_id;
  if (r.supplier !== null) p.supplier = r.supplier;
  if (r.category !== null) p.category = r.category;
  if (r.declarations !== null) p.declarations = r.declarations;
  if (r.barcode_aliases !== null) p.barcodeAliases = JSON.parse(r.barcode_aliases) as BarcodeAlias[];
  if (r.deposit_product !== null) p.depositProduct = r.deposit_product;
  if (r.deposit_product_label !== null) p.depositProductLabel = r.deposit_product_label;
  if (r.description !== null) p.description = r.description;
  if (r.sale_price !== null) p.salePrice = r.sale_price;
  if (r.sale_percentage !== null) p.salePercentage = r.sale_percentage;
  if (r.sale_price_date_from !== null) p.salePriceDateFrom = r.sale_price_date_from;
  if (r.sale_price_date_to !== null) p.salePriceDateTo = r.sale_price_date_to;
  if (r.cost_price !== null) p.costPrice = r.cost_price;
  if (r.margin !== null) p.margin = r.margin;
  if (r.show_on_screen !== null) p.showOnScreen = r.show_on_screen === 1;
  if (r.age_restriction !== null) p.ageRestriction = r.age_restriction === 1;
  if (r.show_on_scale !== null) p.showOnScale = r.show_on_scale === 1;
  if (r.sale_stop !== null) p.saleStop = r.sale_stop === 1;
  if (r.deactivated !== null) p.deactivated = r.deactivated === 1;
  if (r.open_input !== null) p.openInput = r.open_input === 1;
  if (r.idx !== null) p.index = r.idx;
  if (r.c_allow_store !== null) p.allowStore = JSON.parse(r.c_allow_store) as string[];
  if (r.c_hide_store !== null) p.hideStore = JSON.parse(r.c_hide_store) as string[];
  return p;
}

const COLUMNS = Object.keys(toRow({} as ProductRecord));

const SELECT = `SELECT p.*, c.allow_store AS c_allow_store, c.hide_store AS c_hide_store
  FROM products p LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id`;

const STORE_FILTER = `AND NOT EXISTS (SELECT 1 FROM json_each(c.hide_store) WHERE value = @store)
  AND (c.allow_store IS NULL OR EXISTS (SELECT 1 FROM json_each(c.allow_store) WHERE value = @store))`;

// CROSS JOIN keeps the alias table outermost: the planner would otherwise walk
// every product in id order to skip the sort.
const ALIAS_SELECT = `SELECT p.*, c.allow_store AS c_allow_store, c.hide_store AS c_hide_store
  FROM product_alias_codes a CROSS JOIN products p ON p.id = a.product_id
  LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id`;

/**
 * Where a page's rows come from: all products, those with a barcode, those with
 * an alias code. `key` is the id column in the order of the index each one
 * walks, so that paging never needs a sort.
 */
const SOURCES = {
  all: { from: `${SELECT} WHERE p.org_id = @orgId`, key: 'p.id' },
  barcode: {
    from: `SELECT p.*, c.allow_store AS c_allow_store, c.hide_store AS c_hide_store
      FROM products p INDEXED BY products_org_barcode LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id
      WHERE p.org_id = @orgId AND p.barcode = @barcode`,
    key: 'p.id',
  },
  alias: { from: `${ALIAS_SELECT} WHERE a.org_id = @orgId AND a.code = @barcode`, key: 'a.product_id' },
};
type PageSource = keyof typeof SOURCES;

const byIdOrder = (a: ProductRow, b: ProductRow) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export interface ProductPageQuery {
  orgId: string;
  /** Serve rows with an id greater than this. */
  afterId?: string | undefined;
  limit: number;
  store?: string | undefined;
  /** Exact, already lowercased barcode or alias code. */
  barcode?: string | undefined;
}

export function createProductStore(db: Db) {
  const insert = db.prepare(`INSERT INTO products (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const update = db.prepare(
    `UPDATE products SET ${COLUMNS.filter((c) => c !== 'id' && c !== 'org_id').map((c) => `${c} = @${c}`).join(', ')}
      WHERE id = @id AND org_id = @org_id`,
  );
  const byId = db.prepare<[string, string], ProductRow>(`${SELECT} WHERE p.id = ? AND p.org_id = ?`);
  // The id list drives the join (CROSS JOIN keeps it outermost): one primary-key probe per id, in list order.
  const activeByIds = db.prepare<[string, string], ProductRow>(
    `SELECT p.*, c.allow_store AS c_allow_store, c.hide_store AS c_hide_store
       FROM json_each(?) AS j CROSS JOIN products p ON p.id = j.value AND p.org_id = ? AND p.deleted = 0
       LEFT JOIN categories c ON c.id = p.category AND c.org_id = p.org_id
      ORDER BY j.key`,
  );
  const clearCodes = db.prepare('DELETE FROM product_alias_codes WHERE product_id = ?');
  const addCode = db.prepare('INSERT OR IGNORE INTO product_alias_codes (org_id, code, product_id) VALUES (?, ?, ?)');
  const activeOfOrg = db.prepare<[string], ProductRow>(`${SELECT} WHERE p.org_id = ? AND p.deleted = 0 ORDER BY p.id`);

  // One statement per combination of filters, prepared on first use.
  const pageStatements = new Map<string, ReturnType<Db['prepare']>>();
  const pageRows = (source: PageSource, q: ProductPageQuery, params: Record<string, unknown>) => {
    const variant = `${source}|${q.afterId !== undefined}|${q.store !== undefined}`;
    let statement = pageStatements.get(variant);
    if (!statement) {
      const { from, key } = SOURCES[source];
      // A bare `LIMIT @limit` costs about 12 µs per run, more than a whole barcode probe; the cast does not.
      statement = db.prepare(
        `${from} AND p.deleted = 0
         ${q.afterId !== undefined ? `AND ${key} > @afterId` : ''}
         ${q.store !== undefined ? STORE_FILTER : ''}
         ORDER BY ${key} LIMIT CAST(@limit AS INTEGER)`,
      );
      pageStatements.set(variant, statement);
    }
    return statement.all(params) as ProductRow[];
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
      return activeByIds.all(JSON.stringify(ids), orgId).map(fromRow);
    },
    get(orgId: string, id: string): ProductRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    page(q: ProductPageQuery): ProductRecord[] {
      const params: Record<string, unknown> = { orgId: q.orgId, limit: q.limit };
      if (q.afterId !== undefined) params.afterId = q.afterId;
      if (q.store !== undefined) params.store = q.store;
      if (q.barcode === undefined) return pageRows('all', q, params).map(fromRow);
      params.barcode = q.barcode;
      // Two index walks merged here: one query over both tables costs several times as much.
      const rows = [...pageRows('barcode', q, params), ...pageRows('alias', q, params)].sort(byIdOrder);
      const unique = rows.filter((row, i) => i === 0 || row.id !== rows[i - 1]!.id);
      return unique.slice(0, q.limit).map(fromRow);
    },
    /** Every active product of an organization, in id order, read lazily. */
    *iterateActive(orgId: string): Generator<ProductRecord> {
      for (const row of activeOfOrg.iterate(orgId)) yield fromRow(row);
    },
  };
}

export type ProductStore = ReturnType<typeof createProductStore>;
