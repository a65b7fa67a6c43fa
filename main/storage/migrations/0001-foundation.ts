import type { Migration } from './index.js';

export const foundation: Migration = {
  version: 1,
  name: 'foundation',
  sql: `
CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  features TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  kind TEXT NOT NULL CHECK (kind IN ('read', 'write')),
  key_hash TEXT NOT NULL UNIQUE,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE TABLE categories (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  external_id TEXT,
  idx INTEGER,
  show_on_screen INTEGER,
  image_url TEXT,
  margin_min_percent REAL,
  margin_max_percent REAL,
  hide_store TEXT,
  allow_store TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  createdate TEXT NOT NULL,
  lastupdate TEXT NOT NULL
);
CREATE INDEX categories_org_list ON categories (org_id, deleted, id);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  external_id TEXT,
  name TEXT NOT NULL,
  price INTEGER NOT NULL,
  supplier TEXT,
  tax_category TEXT NOT NULL,
  category TEXT,
  declarations TEXT,
  barcode TEXT NOT NULL,
  barcode_aliases TEXT,
  deposit_product INTEGER,
  deposit_product_label TEXT,
  description TEXT,
  sale_price INTEGER,
  sale_percentage REAL,
  sale_price_date_from TEXT,
  sale_price_date_to TEXT,
  cost_price INTEGER,
  margin REAL,
  show_on_screen INTEGER,
  age_restriction INTEGER,
  show_on_scale INTEGER,
  sale_stop INTEGER,
  deactivated INTEGER,
  open_input INTEGER,
  image_url TEXT NOT NULL DEFAULT '',
  idx INTEGER,
  deleted INTEGER NOT NULL DEFAULT 0,
  createdate TEXT NOT NULL,
  lastupdate TEXT NOT NULL
);
CREATE INDEX products_org_list ON products (org_id, deleted, id);
CREATE INDEX products_org_barcode ON products (org_id, barcode, id);

-- Alias codes, one row each, so a scanner lookup is one index probe.
CREATE TABLE product_alias_codes (
  org_id TEXT NOT NULL,
  code TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  PRIMARY KEY (org_id, code, product_id)
) WITHOUT ROWID;
CREATE INDEX product_alias_codes_product ON product_alias_codes (product_id);

-- Every local write, queued for the upstream in the same transaction as the write.
CREATE TABLE outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  org_id TEXT NOT NULL,
  resource TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT
);
CREATE INDEX outbox_pending ON outbox (state, seq);
`,
};
