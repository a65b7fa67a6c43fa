import type { Migration } from './index.js';

/**
 * Image files this server stored for a product. Only a file listed here, for
 * that very product, is ever deleted when the product's image changes; a URL a
 * client set itself is never touched, even one that points into the store.
 */
export const productImages: Migration = {
  version: 5,
  name: 'product-images',
  sql: `
CREATE TABLE product_images (
  file TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  product_id TEXT NOT NULL REFERENCES products(id),
  content_type TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  sha256 TEXT NOT NULL,
  width INTEGER NOT NULL,
  height INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
`,
};
