import type { Migration } from './index.js';

/**
 * `orders_refunded`: the orders with a refund, by organization and last
 * change. A settlement looks for refunds recorded since an order was
 * settled; without it that meant joining every order ever settled, a
 * year's 180,000 in one statement on the server's thread.
 */
export const refundedOrders: Migration = {
  version: 55,
  name: 'refunded-orders',
  sql: `
CREATE INDEX orders_refunded ON orders (org_id, lastupdate) WHERE refunded > 0;
`,
};
