import type { Db } from '../storage/database.js';
import type { OutboxOperation } from '../storage/outbox.js';

/** An outbox entry as the worker reads it. */
export interface QueuedEntry {
  seq: number;
  resource: string;
  resourceId: string;
  operation: OutboxOperation;
  body: Record<string, unknown>;
  createdAt: string;
  /** Times an operator sent it back to the queue after it was parked. */
  retries: number;
  /** Attempts that failed without a verdict (no answer, timeout, 5xx). */
  attempts: number;
  /** Installation id when the entry was written; null for entries written before installations had ids. */
  installation: string | null;
  /** Set before an update is first sent; cleared by an answer that applied nothing. Set: it may have been applied already. */
  sentAt: string | undefined;
}

export interface ParkedEntry {
  id: number;
  operation: OutboxOperation;
  resource: string;
  resourceId: string;
  status: number;
  message: string;
  parkedAt: string;
}

interface RawEntry {
  seq: number;
  resource: string;
  resource_id: string;
  operation: OutboxOperation;
  body: string;
  created_at: string;
  retries: number;
  attempts: number;
  installation: string | null;
  sent_at: string | null;
}

const toEntry = (row: RawEntry): QueuedEntry => ({
  seq: row.seq,
  resource: row.resource,
  resourceId: row.resource_id,
  operation: row.operation,
  body: JSON.parse(row.body) as Record<string, unknown>,
  createdAt: row.created_at,
  retries: row.retries,
  attempts: row.attempts,
  installation: row.installation,
  sentAt: row.sent_at ?? undefined,
});

/** Adds the fields an unpushed entry changes: `deleted` for a delete, `imageUrl` for an upload (its body describes the file). */
function addChangedFields(fields: Set<string>, row: { resource: string; operation: OutboxOperation; body: string }): void {
  if (row.operation === 'delete') fields.add('deleted');
  else if (row.resource === 'product-image') fields.add('imageUrl');
  else for (const field of Object.keys(JSON.parse(row.body) as object)) fields.add(field);
}

/** The outbox from the sync worker's side: what waits, what is parked, what was pushed. */
export function createOutboxQueue(db: Db) {
  const pendingAfter = db.prepare<[string, number, number], RawEntry>(
    "SELECT seq, resource, resource_id, operation, body, created_at, retries, attempts, installation, sent_at FROM outbox WHERE org_id = ? AND state = 'pending' AND seq > ? ORDER BY seq LIMIT ?",
  );
  const counts = db.prepare<[string], { pending: number; parked: number; oldest: string | null }>(
    `SELECT count(*) FILTER (WHERE state = 'pending') AS pending, count(*) FILTER (WHERE state = 'parked') AS parked,
       min(created_at) FILTER (WHERE state = 'pending') AS oldest FROM outbox WHERE org_id = ? AND state IN ('pending', 'parked')`,
  );
  const oldestPending = db.prepare<[string], number>("SELECT seq FROM outbox WHERE org_id = ? AND state = 'pending' ORDER BY seq LIMIT 1").pluck();
  const markPushed = db.prepare("UPDATE outbox SET state = 'pushed', done_at = ?, last_error = NULL, upstream_status = ? WHERE seq = ? AND state = 'pending'");
  const park = db.prepare(
    "UPDATE outbox SET state = 'parked', upstream_status = ?, last_error = ?, parked_at = ?, attempts = attempts + 1 WHERE seq = ? AND state = 'pending'",
  );
  const failed = db.prepare('UPDATE outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?');
  const sent = db.prepare('UPDATE outbox SET sent_at = ? WHERE seq = ?');
  const parked = db.prepare<[string], { seq: number; operation: OutboxOperation; resource: string; resource_id: string; upstream_status: number; last_error: string; parked_at: string }>(
    "SELECT seq, operation, resource, resource_id, upstream_status, last_error, parked_at FROM outbox WHERE org_id = ? AND state = 'parked' ORDER BY seq",
  );
  const retryOne = db.prepare("UPDATE outbox SET state = 'pending', parked_at = NULL, retries = retries + 1 WHERE org_id = ? AND seq = ? AND state = 'parked'");
  const retryAll = db.prepare("UPDATE outbox SET state = 'pending', parked_at = NULL, retries = retries + 1 WHERE org_id = ? AND state = 'parked'");
  const discard = db.prepare("UPDATE outbox SET state = 'discarded', done_at = ? WHERE org_id = ? AND seq = ? AND state = 'parked'");
  const unpushedOfRecord = db.prepare<[string, string], { resource: string; operation: OutboxOperation; body: string }>(
    "SELECT resource, operation, body FROM outbox WHERE org_id = ? AND resource_id = ? AND state IN ('pending', 'parked') AND resource NOT IN ('order', 'identity-log')",
  );
  const parkedOfRecord = db.prepare<[string, string], { resource: string }>(
    "SELECT resource FROM outbox WHERE org_id = ? AND resource_id = ? AND state = 'parked'",
  );
  const unpushedCreate = db.prepare<[string, string, string], { seq: number }>(
    "SELECT seq FROM outbox WHERE org_id = ? AND resource = ? AND resource_id = ? AND operation = 'create' AND state IN ('pending', 'parked') LIMIT 1",
  );

  return {
    /** Pending entries after `afterSeq`, oldest first. */
    pendingAfter(orgId: string, afterSeq: number, limit: number): QueuedEntry[] {
      return pendingAfter.all(orgId, afterSeq, limit).map(toEntry);
    },
    counts(orgId: string): { pending: number; parked: number; oldestPendingAt: string | undefined } {
      const row = counts.get(orgId) ?? { pending: 0, parked: 0, oldest: null };
      return { pending: row.pending, parked: row.parked, oldestPendingAt: row.oldest ?? undefined };
    },
    /** Id of the oldest pending entry: every entry below it is pushed, parked (sent again under a new key) or discarded. */
    oldestPendingSeq(orgId: string): number | undefined {
      return oldestPending.get(orgId);
    },
    markPushed(seq: number, status: number, now: string): void {
      markPushed.run(now, status, seq);
    },
    park(seq: number, status: number, message: string, now: string): void {
      park.run(status, message, now, seq);
    },
    /** Notes, in a commit of its own with its fsync, that an update goes out now; `undefined` clears it. */
    recordSent(seq: number, at: string | undefined): void {
      sent.run(at ?? null, seq);
    },
    recordFailure(seq: number, message: string): void {
      failed.run(message, seq);
    },
    parked(orgId: string): ParkedEntry[] {
      return parked.all(orgId).map((row) => ({
        id: row.seq,
        operation: row.operation,
        resource: row.resource,
        resourceId: row.resource_id,
        status: row.upstream_status,
        message: row.last_error,
        parkedAt: row.parked_at,
      }));
    },
    /** The resources of the parked entries of one record id (through the (org, resource id, state) index). */
    parkedResourcesOf(orgId: string, id: string): string[] {
      return parkedOfRecord.all(orgId, id).map((row) => row.resource);
    },
    /** Parked entries back to the queue, in their original place; returns how many. */
    retry(orgId: string, seq: number | 'all'): number {
      return (seq === 'all' ? retryAll.run(orgId) : retryOne.run(orgId, seq)).changes;
    },
    /** A parked entry given up on; the row stays, state `discarded`, as the record of it. */
    discard(orgId: string, seq: number, now: string): number {
      return discard.run(now, orgId, seq).changes;
    },
    /**
     * The fields of a local catalog record whose local change has not reached
     * the upstream yet (its entry is pending or parked), read through the
     * outbox's (org, resource id, state) index: a pull asks per row, so a
     * backlog of parked entries costs it nothing for the records they do not touch.
     */
    unpushedFieldsOf(orgId: string, id: string): Set<string> | undefined {
      let fields: Set<string> | undefined;
      for (const row of unpushedOfRecord.iterate(orgId, id)) addChangedFields((fields ??= new Set()), row);
      return fields;
    },
    /** Whether the record's creation still waits to reach the upstream (so its upstream id is unknown). */
    hasUnpushedCreate(orgId: string, resource: string, id: string): boolean {
      return unpushedCreate.get(orgId, resource, id) !== undefined;
    },
  };
}

export type OutboxQueue = ReturnType<typeof createOutboxQueue>;
