import type { Migration } from './index.js';

/** A store's card payments of a day (the staff page's list, the report's card totals) read one range of an index. */
export const paymentsByStoreDay: Migration = {
  version: 31,
  name: 'payments-by-store-day',
  sql: `
CREATE INDEX payments_store_day ON payments (org_id, store, created_at);
`,
};
