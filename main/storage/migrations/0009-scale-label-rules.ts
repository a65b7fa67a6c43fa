import type { Migration } from './index.js';

/**
 * An organization's own scale-label rules, tried in `position` order before
 * the built-in ones (21 weight, 23 price), which are not stored.
 */
export const scaleLabelRules: Migration = {
  version: 9,
  name: 'scale-label-rules',
  sql: `
CREATE TABLE scale_label_rules (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL REFERENCES organizations(id),
  position INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('weight', 'price')),
  pattern TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (org_id, position),
  UNIQUE (org_id, pattern)
);
`,
};
