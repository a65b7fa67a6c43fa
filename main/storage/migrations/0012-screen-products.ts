import type { Migration } from './index.js';

/** `showOnScreen=true` pages (what a kiosk offers without a scan) walk only the flagged products. */
export const screenProducts: Migration = {
  version: 12,
  name: 'screen-products',
  sql: `
CREATE INDEX products_org_screen ON products (org_id, deleted, show_on_screen, id);
`,
};
