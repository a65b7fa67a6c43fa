import type { Migration } from './index.js';

/**
 * The label-scale feed: rows changed since a time walk `lastupdate` (deleted
 * ones included), and `showOnScale=true` pages walk only the flagged products.
 */
export const productFeed: Migration = {
  version: 10,
  name: 'product-feed',
  sql: `
CREATE INDEX products_org_changed ON products (org_id, lastupdate, id);
CREATE INDEX products_org_scale ON products (org_id, deleted, show_on_scale, id);
`,
};
