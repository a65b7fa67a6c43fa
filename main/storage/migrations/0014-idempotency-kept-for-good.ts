import type { Migration } from './index.js';

/**
 * Marks kept `Idempotency-Key` answers that never expire: those a sync worker's
 * creation got, which a store PC switched off for longer than a day may repeat.
 */
export const idempotencyKeptForGood: Migration = {
  version: 14,
  name: 'idempotency-kept-for-good',
  sql: `
ALTER TABLE idempotency_keys ADD COLUMN kept_for_good INTEGER NOT NULL DEFAULT 0;
`,
};
