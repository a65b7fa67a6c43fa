import type { Migration } from './index.js';

/**
 * What keeps years of running within a bounded database (see docs/sync.md,
 * "Retention"):
 *
 * - `idempotency_keys.expires_at` replaces "kept for good": every kept answer
 *   now has an end (24 hours, or 90 days for a sync worker's creation, sooner
 *   once its store acknowledged it). `sender` and `entry_seq` name the store's
 *   sync worker and its outbox entry for keys `sync-…-<entry>`, and
 *   `idempotency_senders` keeps, per sender, the entry below which that store
 *   will never send a key again.
 * - Indexes that let each purge reach only the rows it deletes: pushed outbox
 *   rows by the time they were pushed, soft-deleted rows by their last change.
 * - `purge_schedule`: when the server's next purge runs, for `GET /sync`.
 */
export const boundedRetention: Migration = {
  version: 21,
  name: 'bounded-retention',
  sql: `
ALTER TABLE idempotency_keys ADD COLUMN expires_at TEXT;
ALTER TABLE idempotency_keys ADD COLUMN sender TEXT;
ALTER TABLE idempotency_keys ADD COLUMN entry_seq INTEGER;
UPDATE idempotency_keys SET expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, CASE kept_for_good WHEN 1 THEN '+90 days' ELSE '+1 day' END);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
CREATE INDEX idempotency_keys_sender ON idempotency_keys (org_id, sender, entry_seq) WHERE sender IS NOT NULL;

CREATE TABLE idempotency_senders (
  org_id TEXT NOT NULL,
  sender TEXT NOT NULL,
  acknowledged_below INTEGER NOT NULL,
  PRIMARY KEY (org_id, sender)
) WITHOUT ROWID;

CREATE INDEX outbox_pushed ON outbox (done_at) WHERE state = 'pushed';
CREATE INDEX products_deleted ON products (lastupdate) WHERE deleted = 1;
CREATE INDEX categories_deleted ON categories (lastupdate) WHERE deleted = 1;
CREATE INDEX suppliers_deleted ON suppliers (lastupdate) WHERE deleted = 1;
CREATE INDEX stores_deleted ON stores (lastupdate) WHERE deleted = 1;
CREATE INDEX blocked_identities_deleted ON blocked_identities (lastupdate) WHERE deleted = 1;
CREATE INDEX product_images_product ON product_images (product_id);
-- A category whose store lists change moves its products' change-feed time.
CREATE INDEX products_org_category ON products (org_id, category);

CREATE TABLE purge_schedule (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  next_at TEXT NOT NULL
);
`,
};
