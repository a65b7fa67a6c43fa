import type { Migration } from './index.js';

/**
 * Where each collection's pull walks stand, so a pull cut off resumes from
 * the last page it applied instead of from page 1. `walk` names the walk (the
 * upstream URL and where the feed starts, or the plain list), so a pull of
 * what changed that runs in between leaves a cut full pull's place alone; a
 * row with `done = 1` is a walk read to its end in a pull that did not finish.
 * `removes` marks a whole walk, which may remove records at its end:
 * `sync_walk_seen` holds the upstream ids it has listed so far.
 *
 * On an upstream, `sync_writers` names, per catalog record, the store PC
 * whose pushed change (an `Idempotency-Key` of its sync worker) made the
 * record's current `lastupdate`: such a store's next change based on an older
 * view is its own, not one made over someone else's (see `Sync-Base-Updated-At`).
 *
 * `outbox.sent_at`: when an update was first sent, committed before the send,
 * so a repeat after a power cut knows it may have been applied already.
 */
export const syncWalks: Migration = {
  version: 23,
  name: 'sync-walks-and-writers',
  sql: `
CREATE TABLE sync_walks (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  walk TEXT NOT NULL,
  removes INTEGER NOT NULL,
  next_cursor TEXT,
  complete_until TEXT,
  done INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (org_id, kind, walk)
) WITHOUT ROWID;
CREATE TABLE sync_walk_seen (
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  upstream_id TEXT NOT NULL,
  PRIMARY KEY (org_id, kind, upstream_id)
) WITHOUT ROWID;
ALTER TABLE outbox ADD COLUMN sent_at TEXT;
CREATE TABLE sync_writers (
  org_id TEXT NOT NULL,
  record_table TEXT NOT NULL,
  record_id TEXT NOT NULL,
  writer TEXT NOT NULL,
  lastupdate TEXT NOT NULL,
  PRIMARY KEY (org_id, record_table, record_id)
) WITHOUT ROWID;
`,
};
