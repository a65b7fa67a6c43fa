import type { Migration } from './index.js';

/**
 * Where each collection's pull walks stand, so a pull cut off resumes from
 * the last page it applied instead of from page 1. `walk` names the walk (the
 * upstream URL and where the feed starts, or the plain list), so a pull of
 * what changed that runs in between leaves a cut full pull's place alone; a
 * row with `done = 1` is a walk read to its end in a pull that did not finish.
 * `removes` marks a whole walk, which may remove records at its end:
 * `sync_walk_seen` holds the upstream ids it has listed so far.
 */
export const syncWalks: Migration = {
  version: 23,
  name: 'sync-walks',
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
`,
};
