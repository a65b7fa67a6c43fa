import type { Migration } from './index.js';

/**
 * A store's time zone (NULL: the default zone), which decides its local day;
 * and the daily report's one index range scan: a store's orders of one day.
 */
export const storeTimeZone: Migration = {
  version: 16,
  name: 'store-time-zone',
  sql: `
ALTER TABLE stores ADD COLUMN time_zone TEXT;
CREATE INDEX orders_org_store_date ON orders (org_id, store, order_date);
`,
};
