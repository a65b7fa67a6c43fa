import type { Migration } from './index.js';

/**
 * Every sale recorded once and honestly:
 *
 * - An order's `orderId` is unique per store, not per organization: two tills
 *   numbering their sales the same way (`till-1-0001`) at two stores record two
 *   sales. The old index was stricter, so every existing row fits the new one.
 * - Kept `Idempotency-Key` answers belong to the API key that sent them
 *   (`api_key_id`), so one key's value never answers or blocks another key's
 *   request; a store PC's sync keys are kept under `'sync'` for every write
 *   key. Answers kept before this migration have `''` and are still found for
 *   any key of their organization until they expire.
 * - `order_line_flags` replaces `order_price_deviations`: a kiosk line is also
 *   flagged for an unknown product, a tax rate or deposit other than the
 *   catalog's, or a total of 0 for a priced product; `recorded_at` shows it on the
 *   day it was recorded as well. Existing deviations move over as price flags.
 * - `late_sales`: kiosk sales recorded long after their order date, listed on
 *   the day they were recorded.
 * - `stores.receipt_url`: the store's own e-receipt address, the only one a
 *   kiosk key may print as a receipt's QR code.
 */
export const salesPerStore: Migration = {
  version: 25,
  name: 'sales-per-store',
  sql: `
DROP INDEX orders_org_order_id;
CREATE UNIQUE INDEX orders_org_store_order_id ON orders (org_id, store, order_id);

CREATE TABLE idempotency_keys_v25 (
  org_id TEXT NOT NULL,
  api_key_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  expires_at TEXT,
  sender TEXT,
  entry_seq INTEGER,
  PRIMARY KEY (org_id, api_key_id, key)
) WITHOUT ROWID;
INSERT INTO idempotency_keys_v25 (org_id, api_key_id, key, fingerprint, status, body, created_at, expires_at, sender, entry_seq)
  SELECT org_id, '', key, fingerprint, status, body, created_at, expires_at, sender, entry_seq FROM idempotency_keys;
DROP TABLE idempotency_keys;
ALTER TABLE idempotency_keys_v25 RENAME TO idempotency_keys;
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_sender ON idempotency_keys (org_id, sender, entry_seq) WHERE sender IS NOT NULL;

CREATE TABLE order_line_flags (
  org_id TEXT NOT NULL REFERENCES organizations(id),
  order_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  store TEXT NOT NULL,
  order_date TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  product_id TEXT NOT NULL,
  title TEXT NOT NULL,
  quantity REAL NOT NULL,
  price INTEGER NOT NULL,
  catalog_price INTEGER,
  tax_rate REAL NOT NULL,
  catalog_tax_rate REAL,
  deposit INTEGER NOT NULL,
  catalog_deposit INTEGER,
  reasons TEXT NOT NULL,
  PRIMARY KEY (order_id, line)
);
INSERT INTO order_line_flags (org_id, order_id, line, store, order_date, recorded_at, product_id, title, quantity, price, catalog_price,
                              tax_rate, catalog_tax_rate, deposit, catalog_deposit, reasons)
  SELECT d.org_id, d.order_id, d.line, d.store, d.order_date, o.createdate, d.product_id, d.title, d.quantity, d.price, d.catalog_price,
         json_extract(o.products, '$[' || d.line || '].taxRate'), json_extract(o.products, '$[' || d.line || '].taxRate'),
         json_extract(o.products, '$[' || d.line || '].deposit'), json_extract(o.products, '$[' || d.line || '].deposit'), 'price'
    FROM order_price_deviations d JOIN orders o ON o.id = d.order_id;
DROP TABLE order_price_deviations;
CREATE INDEX order_line_flags_day ON order_line_flags (org_id, store, order_date);
CREATE INDEX order_line_flags_recorded ON order_line_flags (org_id, store, recorded_at);

CREATE TABLE late_sales (
  order_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL,
  order_date TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  price INTEGER NOT NULL
);
CREATE INDEX late_sales_recorded ON late_sales (org_id, store, recorded_at);

ALTER TABLE stores ADD COLUMN receipt_url TEXT;
`,
};
