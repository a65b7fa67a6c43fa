import type { Migration } from './index.js';

/**
 * What each supplier sold and is owed, settled once:
 *
 * - `payout_accounts`: the organization's own account, the debtor of payout files.
 * - `settlements`: numbered without gaps per organization (`UNIQUE (org_id, number)`).
 * - `settlement_amounts`: per supplier and store, as computed when settling, so a
 *   statement never changes when a margin does later.
 * - `settlement_lines`: the lines behind the amounts; a refund after settlement
 *   is a line of kind `refund` in a later settlement. Appended in rowid order:
 *   a year's half a million lines are written in seconds.
 * - `settled_orders`: orders a settlement took, with the refunded cents
 *   accounted so far. Its key keeps each order's sale, and so each of its
 *   lines, in one settlement whatever happens; the next settlement reads only
 *   what is new.
 * - `orders_org_recorded`: orders by the time the server recorded them.
 */
export const settlements: Migration = {
  version: 50,
  name: 'settlements',
  sql: `
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

CREATE TABLE settlements (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  number INTEGER NOT NULL,
  to_time TEXT NOT NULL,
  store TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, number)
);

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
CREATE INDEX settlement_lines_supplier ON settlement_lines (settlement_id, supplier);

CREATE TABLE settled_orders (
  order_id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  refunded INTEGER NOT NULL
) WITHOUT ROWID;

CREATE INDEX orders_org_recorded ON orders (org_id, createdate);
`,
};
