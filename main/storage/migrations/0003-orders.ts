import type { Migration } from './index.js';

/** Orders, with their lines kept as JSON in the order row: one row read serves a whole order. */
export const orders: Migration = {
  version: 3,
  name: 'orders',
  sql: `
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
);
-- A repeated POST with the same orderId finds the first order; the constraint settles races.
CREATE UNIQUE INDEX orders_org_order_id ON orders (org_id, order_id);
-- GET /orders: a time window of one organization, newest first, one index range scan.
CREATE INDEX orders_org_date ON orders (org_id, order_date, id);
`,
};
