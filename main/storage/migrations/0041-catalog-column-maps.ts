import type { Migration } from './index.js';

/**
 * Each organization's mapping of a shop's own spreadsheet headers to product
 * fields (`POST /catalog/columns`), kept as the JSON object it was sent as.
 * It belongs to the PC where files are imported and is not synced.
 */
export const catalogColumnMaps: Migration = {
  version: 41,
  name: 'catalog-column-maps',
  sql: `
CREATE TABLE catalog_column_maps (
  org_id TEXT PRIMARY KEY REFERENCES organizations(id),
  columns TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`,
};
