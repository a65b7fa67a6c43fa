import type { Db } from './database.js';

export type OutboxOperation = 'create' | 'update' | 'delete';

export interface OutboxEntry {
  orgId: string;
  resource: string;
  resourceId: string;
  operation: OutboxOperation;
  /** The body as applied: what the upstream must receive to make the same change. */
  body: unknown;
  createdAt: string;
  /**
   * Pushed here by a store's sync worker. Recorded only while the
   * organization has an upstream of its own to pass it on to; otherwise this
   * server is where it ends, and the store's own outbox holds it.
   */
  relayed?: boolean | undefined;
}

export interface StoredOutboxEntry extends OutboxEntry {
  seq: number;
  state: string;
  attempts: number;
  lastError: string | null;
}

interface RawEntry {
  seq: number;
  org_id: string;
  resource: string;
  resource_id: string;
  operation: OutboxOperation;
  body: string;
  created_at: string;
  state: string;
  attempts: number;
  last_error: string | null;
}

export function createOutboxStore(db: Db) {
  const insert = db.prepare(
    // The installation id of the moment: the entry's idempotency key stays the same after a restore or a copy renews it.
    'INSERT INTO outbox (org_id, resource, resource_id, operation, body, created_at, installation) VALUES (?, ?, ?, ?, ?, ?, (SELECT id FROM installation))',
  );
  const hasUpstream = db.prepare<[string], number>('SELECT 1 FROM sync_config WHERE org_id = ?').pluck();
  const byOrg = db.prepare<[string], RawEntry>('SELECT * FROM outbox WHERE org_id = ? ORDER BY seq');

  return {
    /** Call inside the transaction of the write it records. */
    append(entry: OutboxEntry): void {
      if (entry.relayed && hasUpstream.get(entry.orgId) === undefined) return;
      insert.run(entry.orgId, entry.resource, entry.resourceId, entry.operation, JSON.stringify(entry.body), entry.createdAt);
    },
    listByOrg(orgId: string): StoredOutboxEntry[] {
      return byOrg.all(orgId).map((row) => ({
        seq: row.seq,
        orgId: row.org_id,
        resource: row.resource,
        resourceId: row.resource_id,
        operation: row.operation,
        body: JSON.parse(row.body) as unknown,
        createdAt: row.created_at,
        state: row.state,
        attempts: row.attempts,
        lastError: row.last_error,
      }));
    },
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
