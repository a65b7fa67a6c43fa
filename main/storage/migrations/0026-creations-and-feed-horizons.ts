import type { Migration } from './index.js';

/**
 * `sync_creations`: on an upstream, the answer to each store's creation of a
 * record, kept for good once the kept `Idempotency-Key` answer goes (its store
 * acknowledged it, or its 90 days ran out). A store restored from a backup
 * taken while that creation was pending sends it again under the same key,
 * however long after; the upstream replays the answer instead of creating the
 * record a second time. A row is the key, its request's fingerprint and the
 * short answer (`{"success":true,"id":…}`): about 250 bytes per record a store
 * created, orders left out.
 *
 * `feed_horizons`: per organization, the newest deletion time among the
 * soft-deleted records a purge removed. A change feed read from before it
 * could miss a deletion and answers 410; one that never purged answers every
 * `updatedSince`. A database on which a server already ran (and so may have
 * purged, with the default 90 days) starts with the horizon 90 days back.
 */
export const creationsAndFeedHorizons: Migration = {
  version: 26,
  name: 'creations-and-feed-horizons',
  sql: `
CREATE TABLE sync_creations (
  org_id TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  status INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (org_id, key)
) WITHOUT ROWID;

CREATE TABLE feed_horizons (
  org_id TEXT PRIMARY KEY,
  purged_through TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO feed_horizons (org_id, purged_through)
SELECT id, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-90 days') FROM organizations WHERE EXISTS (SELECT 1 FROM purge_schedule);
`,
};
