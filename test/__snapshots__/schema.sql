CREATE TABLE alerts (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  store TEXT NOT NULL,
  kind TEXT NOT NULL,
  detail TEXT NOT NULL,
  since TEXT NOT NULL,
  alerted_at TEXT,
  mailed INTEGER NOT NULL DEFAULT 0,
  ended_at TEXT
);

CREATE TABLE "api_keys" (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  kind TEXT NOT NULL CHECK (kind IN ('read', 'write', 'kiosk', 'scale')),
  key_hash TEXT NOT NULL UNIQUE,
  active INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  store TEXT,
  name TEXT,
  last_used_at TEXT
);

CREATE TABLE blocked_identities (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  date TEXT NOT NULL,
  comment TEXT NOT NULL,
  raw_mrz TEXT,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  birth_date TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  lastupdate TEXT NOT NULL
);

CREATE TABLE catalog_column_maps (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id),
  columns TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

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

CREATE TABLE daily_mail_marks (
  org_id TEXT PRIMARY KEY,
  last_day TEXT NOT NULL
);

CREATE TABLE feed_horizons (
  org_id TEXT PRIMARY KEY,
  purged_through TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE fleet_devices (
  org_id TEXT NOT NULL,
  device TEXT NOT NULL,
  version TEXT NOT NULL,
  report TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (org_id, device)
);

CREATE TABLE "idempotency_keys" (
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
);

CREATE TABLE idempotency_senders (
  org_id TEXT NOT NULL,
  sender TEXT NOT NULL,
  acknowledged_below INTEGER NOT NULL,
  PRIMARY KEY (org_id, sender)
) WITHOUT ROWID;

CREATE TABLE identity_logs (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  access INTEGER NOT NULL,
  log_date TEXT NOT NULL,
  log_type TEXT,
  app_version TEXT,
  store TEXT,
  source TEXT,
  user TEXT,
  birth_date TEXT,
  image_url TEXT,
  raw_text TEXT,
  createdate TEXT NOT NULL
);

CREATE TABLE installation (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  id TEXT NOT NULL,
  since TEXT NOT NULL,
  reason TEXT NOT NULL
);

CREATE TABLE late_sales (
  order_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL,
  order_date TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  price INTEGER NOT NULL
);

CREATE TABLE mail_attachments (
  mail_id TEXT NOT NULL REFERENCES mail_queue (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (mail_id, position)
) WITHOUT ROWID;

CREATE TABLE mail_queue (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  once_key TEXT,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  html TEXT,
  headers TEXT,
  message_id TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  sent_at TEXT
);

CREATE TABLE mail_settings (
  org_id TEXT PRIMARY KEY,
  sealed_smtp_url TEXT NOT NULL,
  from_address TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

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

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  order_id TEXT NOT NULL,
  store TEXT NOT NULL,
  price INTEGER NOT NULL,
  payment_state TEXT NOT NULL,
  payment_method TEXT,
  payment_brand TEXT,
  order_date TEXT NOT NULL,
  transaction_date TEXT,
  transaction_message TEXT,
  giftcard_id TEXT,
  products TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  createdate TEXT NOT NULL,
  lastupdate TEXT NOT NULL
, refunded INTEGER);

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  features TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
, identity_log_retention_days INTEGER NOT NULL DEFAULT 90);

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
, upstream_status INTEGER, parked_at TEXT, done_at TEXT, retries INTEGER NOT NULL DEFAULT 0, sent_at TEXT, installation TEXT);

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL,
  terminal TEXT NOT NULL REFERENCES terminals(id),
  reference TEXT NOT NULL,
  service_id TEXT NOT NULL UNIQUE,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  state TEXT NOT NULL,
  brand TEXT,
  masked_pan TEXT,
  poi_transaction TEXT,
  message TEXT,
  customer_receipt TEXT NOT NULL DEFAULT '[]',
  cashier_receipt TEXT NOT NULL DEFAULT '[]',
  refunded INTEGER NOT NULL DEFAULT 0,
  cancel_asked INTEGER NOT NULL DEFAULT 0,
  refused INTEGER NOT NULL DEFAULT 0,
  order_id TEXT UNIQUE,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
, charged_amount INTEGER, charged_currency TEXT, sale_id TEXT NOT NULL DEFAULT 'StoreServer', reason TEXT);

CREATE TABLE payout_accounts (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id),
  name TEXT NOT NULL,
  iban TEXT NOT NULL,
  bic TEXT,
  street TEXT,
  zip_code TEXT,
  city TEXT,
  country TEXT,
  updated_at TEXT NOT NULL
);

CREATE TABLE printers (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL REFERENCES stores(id),
  name TEXT NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE product_alias_codes (
  org_id TEXT NOT NULL,
  code TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products(id),
  PRIMARY KEY (org_id, code, product_id)
) WITHOUT ROWID;

CREATE TABLE product_images (
  file TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at TEXT NOT NULL
);

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
, minimum_age INTEGER);

CREATE TABLE purge_schedule (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  next_at TEXT NOT NULL
);

CREATE TABLE rate_windows (
  key_id TEXT NOT NULL,
  what TEXT NOT NULL,
  starts_at INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (key_id, what)
) WITHOUT ROWID;

CREATE TABLE refunds (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  payment_id TEXT NOT NULL REFERENCES payments(id),
  service_id TEXT NOT NULL UNIQUE,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  reversal INTEGER NOT NULL DEFAULT 0,
  state TEXT NOT NULL,
  message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  decided_at TEXT
);

CREATE TABLE scale_label_rules (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  position INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('weight', 'price')),
  pattern TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, position),
  UNIQUE (org_id, pattern)
);

CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);

CREATE TABLE settled_orders (
  order_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  refunded INTEGER NOT NULL
, settlement_id TEXT) WITHOUT ROWID;

CREATE TABLE settlement_amounts (
  settlement_id TEXT NOT NULL REFERENCES settlements(id),
  supplier TEXT NOT NULL,
  store TEXT NOT NULL,
  gross INTEGER NOT NULL,
  margin_percent REAL NOT NULL,
  margin INTEGER NOT NULL,
  lines INTEGER NOT NULL,
  PRIMARY KEY (settlement_id, supplier, store)
) WITHOUT ROWID;

CREATE TABLE settlement_lines (
  settlement_id TEXT NOT NULL REFERENCES settlements(id),
  order_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  kind TEXT NOT NULL,
  store TEXT NOT NULL,
  supplier TEXT NOT NULL,
  product_id TEXT NOT NULL,
  title TEXT NOT NULL,
  quantity REAL NOT NULL,
  amount INTEGER NOT NULL,
  order_date TEXT NOT NULL,
  recorded_at TEXT NOT NULL
);

CREATE TABLE settlements (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  number INTEGER NOT NULL,
  to_time TEXT NOT NULL,
  store TEXT,
  created_at TEXT NOT NULL, unfinished INTEGER NOT NULL DEFAULT 0,
  UNIQUE (org_id, number)
);

CREATE TABLE staff_sign_ins (
  token_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL REFERENCES api_keys(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL
);

CREATE TABLE stores (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  address TEXT,
  zip_code TEXT,
  city TEXT,
  vat_number TEXT,
  payment_cash INTEGER,
  payment_provider_a INTEGER,
  payment_provider_b INTEGER,
  payment_provider_b_offline INTEGER,
  payment_cash_offline INTEGER,
  show_supplier INTEGER,
  hide_text_start INTEGER,
  general_margin REAL,
  custom_message TEXT,
  -- JSON: a string or {"src": ...}, kept in the form the client sent.
  background_image_cart TEXT,
  background_image TEXT,
  background_color TEXT,
  background_font_color TEXT,
  play_sound INTEGER,
  standard_sound TEXT,
  admin_mail TEXT,
  show_info_button INTEGER,
  delete_countdown REAL,
  logo_url TEXT,
  language_multi INTEGER,
  language_main TEXT,
  language_selector TEXT,
  translations TEXT,
  deleted INTEGER NOT NULL DEFAULT 0,
  createdate TEXT NOT NULL,
  lastupdate TEXT NOT NULL
, time_zone TEXT, receipt_url TEXT);

CREATE TABLE suppliers (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  external_id TEXT,
  company TEXT,
  city TEXT,
  street TEXT,
  plz TEXT,
  email TEXT,
  payout_email TEXT,
  order_email TEXT,
  phone TEXT,
  contact_person TEXT,
  contact_phone TEXT,
  daily_mail TEXT,
  supplier_margin REAL,
  iban TEXT,
  bic TEXT,
  bank_name TEXT,
  payouts_enabled INTEGER,
  deleted INTEGER NOT NULL DEFAULT 0,
  createdate TEXT NOT NULL,
  lastupdate TEXT NOT NULL
);

CREATE TABLE sync_config (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id),
  upstream_url TEXT NOT NULL,
  interval_seconds INTEGER NOT NULL DEFAULT 30,
  configured_at TEXT NOT NULL
, upstream_key TEXT NOT NULL DEFAULT '', state TEXT NOT NULL DEFAULT 'idle', last_push_at TEXT, last_pull_at TEXT, last_error TEXT, lease_owner TEXT, lease_until TEXT, run_requested_at TEXT, last_round TEXT, pull_interval_seconds INTEGER NOT NULL DEFAULT 60, full_interval_seconds INTEGER NOT NULL DEFAULT 86400, last_full_pull_at TEXT, feed_marks TEXT, run_requested_full INTEGER NOT NULL DEFAULT 0);

CREATE TABLE sync_creations (
  org_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (org_id, key)
) WITHOUT ROWID;

CREATE TABLE sync_ids (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  local_id TEXT NOT NULL,
  upstream_id TEXT NOT NULL,
  PRIMARY KEY (org_id, kind, local_id)
) WITHOUT ROWID;

CREATE TABLE sync_walk_seen (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  upstream_id TEXT NOT NULL,
  PRIMARY KEY (org_id, kind, upstream_id)
) WITHOUT ROWID;

CREATE TABLE sync_walks (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  walk TEXT NOT NULL,
  removes INTEGER NOT NULL,
  next_cursor TEXT,
  complete_until TEXT,
  done INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, kind, walk)
) WITHOUT ROWID;

CREATE TABLE sync_writers (
  org_id TEXT NOT NULL,
  record_table TEXT NOT NULL,
  record_id TEXT NOT NULL,
  writer TEXT NOT NULL,
  lastupdate TEXT NOT NULL,
  PRIMARY KEY (org_id, record_table, record_id)
) WITHOUT ROWID;

CREATE TABLE terminals (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  store TEXT NOT NULL REFERENCES stores(id),
  name TEXT NOT NULL,
  protocol TEXT NOT NULL,
  host TEXT NOT NULL,
  port INTEGER NOT NULL,
  poi_id TEXT NOT NULL,
  key_identifier TEXT NOT NULL,
  key_version INTEGER NOT NULL,
  sealed_passphrase TEXT NOT NULL,
  certificate TEXT NOT NULL,
  deleted INTEGER NOT NULL DEFAULT 0,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE UNIQUE INDEX alerts_open ON alerts (org_id, store, kind) WHERE ended_at IS NULL;

CREATE INDEX alerts_recent ON alerts (org_id, alerted_at) WHERE alerted_at IS NOT NULL;

CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE INDEX blocked_identities_deleted ON blocked_identities (lastupdate) WHERE deleted = 1;

CREATE INDEX blocked_identities_org_changed ON blocked_identities (org_id, lastupdate, id);

CREATE INDEX blocked_identities_org_list ON blocked_identities (org_id, deleted, id);

CREATE INDEX categories_deleted ON categories (lastupdate) WHERE deleted = 1;

CREATE INDEX categories_org_changed ON categories (org_id, lastupdate, id);

CREATE INDEX categories_org_list ON categories (org_id, deleted, id);

CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);

CREATE INDEX idempotency_keys_sender ON idempotency_keys (org_id, sender, entry_seq) WHERE sender IS NOT NULL;

CREATE INDEX identity_logs_org_date ON identity_logs (org_id, log_date, id);

CREATE INDEX late_sales_recorded ON late_sales (org_id, store, recorded_at);

CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE state = 'queued';

CREATE INDEX mail_queue_newest ON mail_queue (org_id, created_at, id);

CREATE UNIQUE INDEX mail_queue_once ON mail_queue (org_id, once_key) WHERE once_key IS NOT NULL;

CREATE INDEX mail_queue_settled ON mail_queue (created_at) WHERE state <> 'queued';

CREATE INDEX order_line_flags_day ON order_line_flags (org_id, store, order_date);

CREATE INDEX order_line_flags_recorded ON order_line_flags (org_id, store, recorded_at);

CREATE INDEX orders_org_date ON orders (org_id, order_date, id);

CREATE INDEX orders_org_recorded ON orders (org_id, createdate);

CREATE INDEX orders_org_store_date ON orders (org_id, store, order_date);

CREATE UNIQUE INDEX orders_org_store_order_id ON orders (org_id, store, order_id);

CREATE INDEX orders_refunded ON orders (org_id, lastupdate) WHERE refunded > 0;

CREATE INDEX outbox_by_resource ON outbox (resource, resource_id);

CREATE INDEX outbox_org_resource ON outbox (org_id, resource_id, state);

CREATE INDEX outbox_org_state ON outbox (org_id, state, seq);

CREATE INDEX outbox_pending ON outbox (state, seq);

CREATE INDEX outbox_pushed ON outbox (done_at) WHERE state = 'pushed';

CREATE UNIQUE INDEX payments_one_open_per_sale ON payments (org_id, store, reference) WHERE state IN ('pending', 'unknown');

CREATE INDEX payments_open ON payments (state) WHERE state IN ('pending', 'unknown');

CREATE INDEX payments_org_reference ON payments (org_id, reference);

CREATE INDEX payments_store_day ON payments (org_id, store, created_at);

CREATE INDEX printers_org_store ON printers (org_id, store);

CREATE INDEX product_alias_codes_product ON product_alias_codes (product_id);

CREATE INDEX product_images_product ON product_images (product_id);

CREATE INDEX products_deleted ON products (lastupdate) WHERE deleted = 1;

CREATE INDEX products_org_barcode ON products (org_id, barcode, id);

CREATE INDEX products_org_category ON products (org_id, category);

CREATE INDEX products_org_changed ON products (org_id, lastupdate, id);

CREATE INDEX products_org_list ON products (org_id, deleted, id);

CREATE INDEX products_org_scale ON products (org_id, deleted, show_on_scale, id);

CREATE INDEX products_org_screen ON products (org_id, deleted, show_on_screen, id);

CREATE INDEX refunds_done_by_day ON refunds (org_id, decided_at) WHERE state = 'done';

CREATE UNIQUE INDEX refunds_one_open_per_payment ON refunds (payment_id) WHERE state IN ('pending', 'unknown');

CREATE INDEX refunds_open ON refunds (state) WHERE state IN ('pending', 'unknown');

CREATE INDEX refunds_payment ON refunds (payment_id);

CREATE INDEX settled_orders_settlement ON settled_orders (settlement_id) WHERE settlement_id IS NOT NULL;

CREATE INDEX settlement_lines_supplier ON settlement_lines (settlement_id, supplier);

CREATE INDEX staff_sign_ins_by_expiry ON staff_sign_ins (expires_at);

CREATE INDEX stores_deleted ON stores (lastupdate) WHERE deleted = 1;

CREATE INDEX stores_org_changed ON stores (org_id, lastupdate, id);

CREATE INDEX stores_org_list ON stores (org_id, deleted, id);

CREATE INDEX suppliers_deleted ON suppliers (lastupdate) WHERE deleted = 1;

CREATE INDEX suppliers_org_by_name ON suppliers (org_id, deleted, name, id);

CREATE INDEX suppliers_org_changed ON suppliers (org_id, lastupdate, id);

CREATE INDEX sync_ids_upstream ON sync_ids (org_id, kind, upstream_id);

CREATE INDEX terminals_org_store ON terminals (org_id, store);
