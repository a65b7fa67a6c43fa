import type { ListMeta } from '../../shared/api/common.js';
import type { ScaleLabel } from '../../shared/api/scale-labels.js';
import type { ProductCreate, ProductListQuery, ProductUpdate } from '../../shared/api/products.js';
import { newId } from '../rules/ids.js';
import { inFeedFilter } from '../rules/feed-filter.js';
import type { Db } from '../storage/database.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { CategoryStore } from '../storage/categories.js';
import type { ProductRecord, ProductStore } from '../storage/products.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { requireFeature, type Caller } from './caller.js';
import { feedPage, feedReadTime } from './change-feed.js';
import type { Clock } from './clock.js';
import { BadRequest, NotFound, ValidationFailed } from './errors.js';
import { readCursor, toPage } from './paging.js';
import { applyPartialUpdate } from './partial-update.js';
import { immediateTransaction } from '../storage/transactions.js';

/** Answers `GET /products?q=`; provided by the search module. */
export interface ProductSearch {
  search(orgId: string, query: ProductListQuery & { q: string }): { data: ProductRecord[]; meta: ListMeta };
}

/** Reads a scanned code as a scale label; provided by the scales module. */
export interface ScaleLabelReader {
  read(orgId: string, code: string): { baseCode: string; labelFor(product: ProductRecord): ScaleLabel } | undefined;
}

/** Told about every product write after it is committed (search index, image store). */
export interface ProductListener {
  productWritten(before: ProductRecord | undefined, after: ProductRecord): void;
  /** Many writes of the organization follow (an import): whatever is built from the database is built now, while it is still small. */
  prepareForMany?(orgId: string): void;
}

/**
 * An image the image store has just written for a product. The outbox entry
 * references the file (under `DATA_DIR/images`) instead of carrying its bytes;
 * `sha256` lets the replay check that the file is the one uploaded.
 */
export interface StoredProductImage {
  imageUrl: string;
  file: string;
  contentType: string;
  bytes: number;
  sha256: string;
}

/** Barcodes are matched case-insensitively: stored trimmed and lowercased. */
export function normalizeCode(code: string): string {
  return code.trim().toLowerCase();
}

const toUtc = (value: string | undefined) => (value === undefined ? undefined : new Date(value).toISOString());

/** Applies the stored form to fields as a client sent them. */
function normalizeFields(fields: ProductUpdate): ProductUpdate {
  const out: ProductUpdate = { ...fields };
  // An age is an age limit: the schema has already refused it beside `ageRestriction: false`.
  if (fields.minimumAge !== undefined) out.ageRestriction = true;
  if (fields.barcode !== undefined) out.barcode = normalizeCode(fields.barcode);
  if (fields.barcodeAliases !== undefined) {
    out.barcodeAliases = fields.barcodeAliases.map((alias) => ({ ...alias, code: normalizeCode(alias.code) }));
  }
  if (fields.salePriceDateFrom !== undefined) out.salePriceDateFrom = toUtc(fields.salePriceDateFrom);
  if (fields.salePriceDateTo !== undefined) out.salePriceDateTo = toUtc(fields.salePriceDateTo);
  return out;
}

/** Removes what the API says is not stored: empty alias lists, empty barcode. */
function finish(record: ProductRecord): ProductRecord {
  if (record.barcodeAliases && record.barcodeAliases.length === 0) delete record.barcodeAliases;
  if (record.barcode === '') record.barcode = record.id;
  if (record.salePriceDateFrom && record.salePriceDateTo && record.salePriceDateFrom > record.salePriceDateTo) {
    throw new BadRequest(
      `salePriceDateTo (${record.salePriceDateTo}) must not be before salePriceDateFrom (${record.salePriceDateFrom})`,
    );
  }
  return record;
}

/** A write of an import: a new product, or the fields that change on an existing one. */
export type ProductWrite = { create: ProductCreate } | { id: string; patch: ProductUpdate };

/** A committed product write the listeners have not heard of yet: the record before it, and the product's id. */
export type WrittenProduct = [before: ProductRecord | undefined, id: string];

export function createProductService(deps: {
  db: Db;
  products: ProductStore;
  categories: CategoryStore;
  suppliers: SupplierStore;
  stores: StoreStore;
  outbox: OutboxStore;
  clock: Clock;
  search: ProductSearch;
  listeners?: ProductListener[];
  scaleLabels?: ScaleLabelReader | undefined;
}) {
  const { db, products, outbox, clock } = deps;
  const listeners = deps.listeners ?? [];

  const mustGet = (orgId: string, id: string): ProductRecord => {
    const product = products.get(orgId, id);
    if (!product) throw new NotFound('Product', id);
    return product;
  };

  const notify = (before: ProductRecord | undefined, after: ProductRecord) => {
    for (const listener of listeners) listener.productWritten(before, after);
  };

  /**
   * A product names its category and supplier by id: one the organization
   * does not have is a 400, as an order's store is. A soft-deleted one still
   * exists. An empty string names none.
   */
  const requireReferences = (orgId: string, fields: ProductUpdate) => {
    if (fields.category && !deps.categories.get(orgId, fields.category)) {
      throw new BadRequest(`category: no category ${JSON.stringify(fields.category)} in this organization (GET /categories lists them)`);
    }
    if (fields.supplier && !deps.suppliers.get(orgId, fields.supplier)) {
      throw new BadRequest(`supplier: no supplier ${JSON.stringify(fields.supplier)} in this organization (GET /suppliers lists them)`);
    }
  };

  /** Stores a new product with its outbox entry; inside the caller's transaction. */
  const insertNew = (caller: Caller, body: ProductCreate, now: string): string => {
    const fields = normalizeFields(body);
    const id = newId();
    // Object.assign, not a spread followed by properties: with the spread, V8 (Node 20) put these short-lived
    // records in the old generation, where an import of 20,000 products left 41 MB (measured) that only a full
    // collection frees; with Object.assign they die young.
    const record = finish(
      Object.assign({}, fields, {
        id,
        name: body.name,
        price: body.price,
        taxCategory: body.taxCategory,
        barcode: fields.barcode ?? '',
        imageUrl: fields.imageUrl ?? '',
        deleted: false,
        createdate: now,
        lastupdate: now,
        instance: caller.orgId,
      }),
    );
    const { instance: _org, deleted: _deleted, allowStore: _a, hideStore: _h, ...applied } = record;
    products.insert(record);
    outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'product', resourceId: id, operation: 'create', body: applied, createdAt: now });
    return id;
  };

  return {
    create(caller: Caller, body: ProductCreate): string {
      if (body.barcodeAliases !== undefined) requireFeature(caller, 'barcode-aliases');
      requireReferences(caller.orgId, body);
      const id = immediateTransaction(db, () => insertNew(caller, body, clock.now().toISOString()));
      notify(undefined, mustGet(caller.orgId, id));
      return id;
    },

    /**
     * Writes every product of an import, each with its outbox entry, in one
     * transaction: all or nothing. References were checked by the caller.
     * The listeners hear of the writes through `announce`, which the caller
     * spreads over turns of the event loop.
     */
    writeMany(caller: Caller, writes: readonly ProductWrite[]): WrittenProduct[] {
      const now = clock.now().toISOString();
      return immediateTransaction(db, () =>
        writes.map((write): WrittenProduct => {
          if ('create' in write) return [undefined, insertNew(caller, write.create, now)];
          const fields = normalizeFields(write.patch);
          const current = mustGet(caller.orgId, write.id);
          products.replace(finish({ ...current, ...fields, lastupdate: now }));
          outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'product', resourceId: write.id, operation: 'update', body: fields, createdAt: now });
          return [current, write.id];
        }),
      );
    },

    /** Readies the listeners for the many writes of an import, before they are written. */
    prepareForMany(orgId: string): void {
      for (const listener of listeners) listener.prepareForMany?.(orgId);
    },

    /** Tells the listeners (search index, image store) of committed writes. */
    announce(orgId: string, written: readonly WrittenProduct[]): void {
      for (const [before, id] of written) notify(before, mustGet(orgId, id));
    },

    get(caller: Caller, id: string): ProductRecord {
      return mustGet(caller.orgId, id);
    },

    /**
     * Changes the fields of `patch`. `precondition` sees the product as
     * stored (undefined when there is none) in the write's transaction, and
     * throws to write nothing (an `If-Match` that no longer matches).
     */
    update(caller: Caller, id: string, patch: ProductUpdate, precondition?: (current: ProductRecord | undefined) => void): void {
      if (patch.barcodeAliases !== undefined) requireFeature(caller, 'barcode-aliases');
      requireReferences(caller.orgId, patch);
      const fields = normalizeFields(patch);
      const before = applyPartialUpdate(deps, {
        caller,
        resource: 'product',
        id,
        fields,
        read: () => {
          precondition?.(products.get(caller.orgId, id));
          return mustGet(caller.orgId, id);
        },
        write: (current, now) => products.replace(finish({ ...current, ...fields, lastupdate: now })),
      });
      if (before) notify(before, mustGet(caller.orgId, id));
    },

    /** Points the product at an uploaded image: a product write queued as resource `product-image`. */
    setImage(caller: Caller, id: string, image: StoredProductImage): void {
      const now = clock.now().toISOString();
      const { imageUrl, ...reference } = image;
      const before = immediateTransaction(db, () => {
        const current = mustGet(caller.orgId, id);
        products.replace({ ...current, imageUrl, lastupdate: now });
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'product-image', resourceId: id, operation: 'update', body: reference, createdAt: now });
        return current;
      });
      notify(before, mustGet(caller.orgId, id));
    },

    remove(caller: Caller, id: string): void {
      const now = clock.now().toISOString();
      const before = immediateTransaction(db, () => {
        const current = mustGet(caller.orgId, id);
        if (current.deleted) return undefined;
        products.replace({ ...current, deleted: true, lastupdate: now });
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'product', resourceId: id, operation: 'delete', body: {}, createdAt: now });
        return current;
      });
      if (before) notify(before, mustGet(caller.orgId, id));
    },

    list(caller: Caller, query: ProductListQuery): { data: ProductRecord[]; meta: ListMeta } {
      // A store id names a store, as everywhere else: a mistyped one is an error, not every product.
      if (query.store !== undefined && !deps.stores.get(caller.orgId, query.store)) {
        throw new ValidationFailed({ store: [`no store ${JSON.stringify(query.store)} in this organization (GET /stores lists them)`] });
      }
      if (query.q !== undefined) {
        return deps.search.search(caller.orgId, { ...query, q: query.q });
      }
      const after = readCursor(query.cursor);
      const page = { orgId: caller.orgId, afterId: after?.id, limit: query.limit + 1, store: query.store, showOnScale: query.showOnScale, showOnScreen: query.showOnScreen };
      const byId = (p: ProductRecord) => ({ key: p.id, id: p.id });
      if (query.updatedSince !== undefined) {
        const completeUntil = feedReadTime(clock);
        // A feed for a scale or a store lists every change: one that takes a product out of
        // what it asked for (off the scale, hidden in the store) is a removal there.
        const unfiltered = { ...page, store: undefined, showOnScale: undefined, showOnScreen: undefined };
        const changed = products.page({ ...unfiltered, afterKey: after?.key, changedSince: toUtc(query.updatedSince) });
        const asAsked = (p: ProductRecord): ProductRecord => (p.deleted || inFeedFilter(p, query) ? p : { ...p, deleted: true });
        return feedPage(changed.map((p) => ({ record: asAsked(p), lastupdate: p.lastupdate })), query.limit, completeUntil, (p) => p.id);
      }
      if (query.barcode === undefined) return toPage(products.page(page), query.limit, byId);
      const code = normalizeCode(query.barcode);
      const exactRows = products.page({ ...page, barcode: code });
      const label = deps.scaleLabels?.read(caller.orgId, code);
      if (!label) return toPage(exactRows, query.limit, byId);
      const labelled = (p: ProductRecord) => ({ ...p, scaleLabel: label.labelFor(p) });
      // A label whose value is zero is the item's own code: the exact match and the rule agree.
      if (label.baseCode === code) return toPage(exactRows.map((p) => (p.barcode === code ? labelled(p) : p)), query.limit, byId);
      // Any other exact match wins over the rule, also on its later pages and when the store filter hides it.
      if (exactRows.length > 0 || products.page({ orgId: caller.orgId, limit: 1, barcode: code }).length > 0) {
        return toPage(exactRows, query.limit, byId);
      }
      const rows = products.page({ ...page, barcode: label.baseCode, barcodeOnly: true });
      return toPage(rows.map(labelled), query.limit, byId);
    },
  };
}

export type ProductService = ReturnType<typeof createProductService>;
