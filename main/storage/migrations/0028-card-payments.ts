import type { Migration } from './index.js';

/**
 * Card terminals staff register per store, and every payment attempt sent to
 * one. An attempt is stored with its own transaction reference (service_id)
 * before the terminal hears of it, so no answer can be matched to another.
 * One open attempt per sale; one order per payment.
 */
export const cardPayments: Migration = {
  version: 28,
  name: 'card-payments',
  sql: `
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
CREATE INDEX terminals_org_store ON terminals (org_id, store);
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
);
CREATE INDEX payments_org_reference ON payments (org_id, reference);
CREATE UNIQUE INDEX payments_one_open_per_sale ON payments (org_id, reference) WHERE state IN ('pending', 'unknown');
CREATE INDEX payments_open ON payments (state) WHERE state IN ('pending', 'unknown');
`,
};
