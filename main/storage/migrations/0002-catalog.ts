import type { Migration } from './index.js';

/** Suppliers and stores. Categories already exist since 0001 and need no new column. */
export const catalog: Migration = {
  version: 2,
  name: 'catalog',
  sql: `
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
-- GET /suppliers serves active suppliers by name: one index range scan.
CREATE INDEX suppliers_org_by_name ON suppliers (org_id, deleted, name, id);

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
);
CREATE INDEX stores_org_list ON stores (org_id, deleted, id);
`,
};
