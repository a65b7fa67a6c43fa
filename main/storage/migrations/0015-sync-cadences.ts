import type { Migration } from './index.js';

/**
 * Push and pull on their own cadences, and the change feed.
 *
 * `pull_interval_seconds` is how often the worker pulls what changed upstream;
 * `full_interval_seconds` how often it reads the whole catalog to reconcile
 * (`last_full_pull_at` is when the last one started). `feed_marks` (JSON,
 * kind -> upstream time) is where each collection's next change-feed walk
 * starts: the upstream's own `meta.completeUntil`, never this PC's clock.
 * `run_requested_full` carries `sync run --full` to a running server.
 *
 * The `(org_id, lastupdate, id)` indexes serve this server's own change feed
 * (`updatedSince`) to the stores below it: a walk with nothing changed is one
 * index probe.
 */
export const syncCadences: Migration = {
  version: 15,
  name: 'sync-cadences',
  sql: `
ALTER TABLE sync_config ADD COLUMN pull_interval_seconds INTEGER NOT NULL DEFAULT 60;
ALTER TABLE sync_config ADD COLUMN full_interval_seconds INTEGER NOT NULL DEFAULT 86400;
ALTER TABLE sync_config ADD COLUMN last_full_pull_at TEXT;
ALTER TABLE sync_config ADD COLUMN feed_marks TEXT;
ALTER TABLE sync_config ADD COLUMN run_requested_full INTEGER NOT NULL DEFAULT 0;

CREATE INDEX categories_org_changed ON categories (org_id, lastupdate, id);
CREATE INDEX stores_org_changed ON stores (org_id, lastupdate, id);
CREATE INDEX suppliers_org_changed ON suppliers (org_id, lastupdate, id);
CREATE INDEX blocked_identities_org_changed ON blocked_identities (org_id, lastupdate, id);
`,
};
