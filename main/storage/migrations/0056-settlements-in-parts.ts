import type { Migration } from './index.js';

/**
 * A settlement written in several transactions, so that no single commit
 * holds a year's half a million lines:
 *
 * - `settlements.unfinished`: 1 while its parts are being written. Such a
 *   settlement has a provisional negative number, is in no list and no
 *   answer, and is dropped, with everything it took, when the server starts
 *   and when a backup is restored: a power cut leaves no settlement or a
 *   whole one.
 * - `settled_orders.settlement_id`: which settlement took the order, so that
 *   an unfinished one gives its orders back. Null for orders settled before.
 */
export const settlementsInParts: Migration = {
  version: 56,
  name: 'settlements-in-parts',
  sql: `
ALTER TABLE settlements ADD COLUMN unfinished INTEGER NOT NULL DEFAULT 0;
ALTER TABLE settled_orders ADD COLUMN settlement_id TEXT;
CREATE INDEX settled_orders_settlement ON settled_orders (settlement_id) WHERE settlement_id IS NOT NULL;
`,
};
