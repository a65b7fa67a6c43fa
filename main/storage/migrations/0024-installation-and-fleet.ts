import type { Migration } from './index.js';

/**
 * An installation's own random id (128 bits), renewed by `restore` and when a
 * copied data folder is detected; each outbox entry records the id it was
 * written under, so its `Idempotency-Key` stays the one it was first sent
 * with. Entries written before this migration keep NULL and the old key.
 * `fleet_devices`: on an upstream, the last state each store PC reported.
 */
export const installationAndFleet: Migration = {
  version: 24,
  name: 'installation-and-fleet',
  sql: `
CREATE TABLE installation (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  id TEXT NOT NULL,
  since TEXT NOT NULL,
  reason TEXT NOT NULL
);
INSERT INTO installation (singleton, id, since, reason)
VALUES (1, lower(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'created');
ALTER TABLE outbox ADD COLUMN installation TEXT;
CREATE TABLE fleet_devices (
  org_id TEXT NOT NULL,
  device TEXT NOT NULL,
  version TEXT NOT NULL,
  report TEXT NOT NULL,
  first_seen_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  PRIMARY KEY (org_id, device)
);
`,
};
