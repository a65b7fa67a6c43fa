import type { Migration } from './index.js';

/**
 * What the sync worker keeps between rounds and across restarts.
 *
 * The upstream write key lives in `sync_config.upstream_key`: the database file
 * sits in `DATA_DIR`, which only the server's account reads, and no endpoint or
 * CLI command ever returns the column. State columns sit beside it, so they go
 * with the row when `sync disable` deletes it.
 *
 * `sync run` asks a running server for a round through `run_requested_at`
 * and reads the outcome from `last_round` (JSON), so the round runs where the
 * search index lives.
 *
 * `sync_ids` maps a local id to the upstream id of the same record, per kind:
 * creations accepted upstream add a row, and so do rows pulled from upstream
 * (with both ids equal), which marks them as known upstream.
 */
export const syncState: Migration = {
  version: 7,
  name: 'sync-state',
  sql: `
ALTER TABLE sync_config ADD COLUMN upstream_key TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_config ADD COLUMN state TEXT NOT NULL DEFAULT 'idle';
ALTER TABLE sync_config ADD COLUMN last_push_at TEXT;
ALTER TABLE sync_config ADD COLUMN last_pull_at TEXT;
ALTER TABLE sync_config ADD COLUMN last_error TEXT;
ALTER TABLE sync_config ADD COLUMN lease_owner TEXT;
ALTER TABLE sync_config ADD COLUMN lease_until TEXT;
ALTER TABLE sync_config ADD COLUMN run_requested_at TEXT;
ALTER TABLE sync_config ADD COLUMN last_round TEXT;

ALTER TABLE outbox ADD COLUMN upstream_status INTEGER;
ALTER TABLE outbox ADD COLUMN parked_at TEXT;
ALTER TABLE outbox ADD COLUMN done_at TEXT;
ALTER TABLE outbox ADD COLUMN retries INTEGER NOT NULL DEFAULT 0;

CREATE INDEX outbox_org_state ON outbox (org_id, state, seq);
CREATE INDEX outbox_org_resource ON outbox (org_id, resource_id, state);

CREATE TABLE sync_ids (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  local_id TEXT NOT NULL,
  upstream_id TEXT NOT NULL,
  PRIMARY KEY (org_id, kind, local_id)
) WITHOUT ROWID;

CREATE INDEX sync_ids_upstream ON sync_ids (org_id, kind, upstream_id);
`,
};
