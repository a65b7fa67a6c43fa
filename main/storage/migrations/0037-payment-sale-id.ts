import type { Migration } from './index.js';

/**
 * Who the server was towards the terminal (nexo SaleID) when it sent each
 * attempt. A terminal tells a transaction's status only to a query naming the
 * SaleID it was sent with, and an installation's SaleID changes when its data
 * folder is restored or copied; attempts sent before this version went out
 * as "StoreServer".
 */
export const paymentSaleId: Migration = {
  version: 37,
  name: 'payment-sale-id',
  sql: `
ALTER TABLE payments ADD COLUMN sale_id TEXT NOT NULL DEFAULT 'StoreServer';
`,
};
