import type { Migration } from './index.js';

/**
 * Device keys: kinds `kiosk` (bound to one store) and `scale` beside `read`
 * and `write`, a name staff give a key, and when it was last used (written at
 * most about once a minute per key). SQLite cannot relax a CHECK constraint in
 * place, so the table is copied into one with the wider CHECK; every existing
 * key keeps its id, hash and state. Nothing references api_keys.
 *
 * `order_price_deviations`: lines a kiosk key recorded at a price of their own
 * that differs from the catalog's price at the time of recording, for the
 * day's report.
 */
export const deviceKeys: Migration = {
  version: 18,
  name: 'device-keys',
  sql: `
CREATE TABLE api_keys_v18 (
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
INSERT INTO api_keys_v18 (id, org_id, kind, key_hash, active, created_at, revoked_at)
  SELECT id, org_id, kind, key_hash, active, created_at, revoked_at FROM api_keys;
DROP TABLE api_keys;
ALTER TABLE api_keys_v18 RENAME TO api_keys;
CREATE INDEX api_keys_org ON api_keys (org_id, created_at);

CREATE TABLE order_price_deviations (
  org_id TEXT NOT NULL REFERENCES organizations(id),
  order_id TEXT NOT NULL,
  line INTEGER NOT NULL,
  store TEXT NOT NULL,
  order_date TEXT NOT NULL,
  product_id TEXT NOT NULL,
  title TEXT NOT NULL,
  quantity REAL NOT NULL,
  price INTEGER NOT NULL,
  catalog_price INTEGER NOT NULL,
  PRIMARY KEY (order_id, line)
);
CREATE INDEX order_price_deviations_day ON order_price_deviations (org_id, store, order_date);
`,
};
