import type { Migration } from './index.js';

/**
 * How long identity logs keep personal data (date of birth, raw scan, ID image
 * address), per organization. The outbox index lets the daily purge find a
 * log's entries without reading the whole queue.
 */
export const personalDataRetention: Migration = {
  version: 11,
  name: 'personal-data-retention',
  sql: `
ALTER TABLE organizations ADD COLUMN identity_log_retention_days INTEGER NOT NULL DEFAULT 90;
CREATE INDEX outbox_by_resource ON outbox (resource, resource_id);
`,
};
