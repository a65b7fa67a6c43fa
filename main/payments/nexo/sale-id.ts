import { createHash } from 'node:crypto';

/** What every installation called itself before SaleIDs were its own: attempts stored before carry it. */
export const SHARED_SALE_ID = 'StoreServer';

/**
 * This installation's name towards terminals (nexo SaleID). Two store PCs
 * sharing a terminal must not share it: a terminal tells a transaction's
 * status and aborts it by SaleID and ServiceID together. Derived from the
 * installation's random id, which only the upstream sees, by a hash, so the
 * terminal and Adyen's Customer Area, which show it, never learn that id.
 */
export const saleIdOf = (installationId: string): string =>
  `${SHARED_SALE_ID}-${createHash('sha256').update(`nexo-sale-id:${installationId}`).digest('hex').slice(0, 10)}`;
