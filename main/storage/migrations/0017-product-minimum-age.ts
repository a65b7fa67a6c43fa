import type { Migration } from './index.js';

/**
 * A product's minimum age (16 or 18) beside the spec's `ageRestriction`.
 * NULL on every existing row: a restricted product without it reads as 18,
 * what `ageRestriction` meant before.
 */
export const productMinimumAge: Migration = {
  version: 17,
  name: 'product-minimum-age',
  sql: `
ALTER TABLE products ADD COLUMN minimum_age INTEGER;
`,
};
