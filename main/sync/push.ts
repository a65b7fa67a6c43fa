import { existsSync } from 'node:fs';
import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { FeedMarks } from './config-store.js';
import { withoutFsync } from '../storage/database.js';
import type { QueuedEntry } from './outbox-queue.js';
import type { PhaseContext } from './phase-context.js';
import { KINDS, kindOf, referencesIn, rewriteReferences, type SyncKind } from './resources.js';
import { judge, type Verdict } from './retry-policy.js';
import type { UpstreamRequest } from './upstream.js';
import { immediateTransaction } from '../storage/transactions.js';

export interface PushContext extends PhaseContext {
  /** Per collection kind, the upstream time up to which the last pull saw every change: the base of pushed updates. */
  feedMarks: FeedMarks;
  /** Path of a file in the image store (`DATA_DIR/images`), where queued uploads are read from. */
  imagePath: (file: string) => string | undefined;
  onProgress?: (pushed: number) => void;
}

export interface PushReport {
  pushed: number;
  parked: number;
  /** Uploads that ran out of time and wait for the next round while the rest went on. */
  setAside: number;
  /** Why pushing stopped before the end of the queue, if it did. */
  stoppedBy: Extract<Verdict, { kind: 'retry' | 'refused' }> | undefined;
}

type Built =
  | { kind: 'send'; request: UpstreamRequest; creates: SyncKind | undefined }
  | { kind: 'wait' }
  | { kind: 'superseded' };

const BATCH = 200;

/**
 * One key per entry: the organization and the installation it was written
 * under keep store PCs, restores and copies of a data folder apart (a restore
 * hands out sequence numbers again). Entries written before installations had
 * ids keep the key they may already have been sent with. A retry after parking
 * gets a new key: the upstream keeps refusals too and would replay the old one.
 */
export function idempotencyKeyOf(orgId: string, entry: Pick<QueuedEntry, 'seq' | 'retries' | 'installation'>): string {
  const origin = entry.installation ? `${entry.installation}-` : '';
  return `sync-${orgId}-${origin}${entry.seq}${entry.retries > 0 ? `-r${entry.retries}` : ''}`;
}

/** The v1 call that makes an entry's change upstream (without `headers`), or why it cannot go yet. */
function build(ctx: PushContext, entry: QueuedEntry, kind: SyncKind): Built {
  const { orgId, ids, queue } = ctx;
  const unmapped = (k: SyncKind, id: string) => ids.upstreamOf(orgId, k, id) === undefined && queue.hasUnpushedCreate(orgId, k, id);
  if (entry.operation !== 'create' && unmapped(kind, entry.resourceId)) return { kind: 'wait' };
  // A sale is a fact: a line whose product never reached the upstream (its creation parked or
  // discarded) goes with its own title, price and tax rate under the local product id.
  const waitsFor = (ref: { kind: SyncKind }) => !(kind === 'order' && ref.kind === 'product');
  if (referencesIn(kind, entry.body).some((ref) => waitsFor(ref) && unmapped(ref.kind, ref.id))) return { kind: 'wait' };
  const translate = (k: SyncKind, id: string) => ids.upstreamOf(orgId, k, id) ?? id;
  const spec = KINDS[kind];
  const idempotencyKey = idempotencyKeyOf(orgId, entry);
  const target = `${spec.path}/${encodeURIComponent(translate(kind, entry.resourceId))}`;
  if (entry.operation === 'create') {
    const json = rewriteReferences(kind, entry.body, translate);
    for (const field of spec.notWritable) delete json[field];
    return { kind: 'send', request: { method: 'POST', path: spec.path, json, idempotencyKey }, creates: kind };
  }
  if (entry.operation === 'delete') {
    return spec.deletes
      ? { kind: 'send', request: { method: 'DELETE', path: target }, creates: undefined }
      : { kind: 'send', request: { method: 'POST', path: target, json: { deleted: true }, idempotencyKey }, creates: undefined };
  }
  // An update that may have been applied already (sent before, no answer that says otherwise) goes with
  // its base, so that, sent again at any age, it never writes over a change made upstream since.
  const baseUpdatedAt = entry.sentAt !== undefined ? ctx.feedMarks[kind] : undefined;
  if (entry.resource === 'product-image') {
    const file = ctx.imagePath(String(entry.body.file));
    // A later image replaced this one and its file is gone; that later write is queued behind it.
    if (file === undefined || !existsSync(file)) return { kind: 'superseded' };
    const upload = { path: file, contentType: String(entry.body.contentType), failedBefore: entry.attempts };
    return { kind: 'send', request: { method: 'POST', path: `${target}/image`, upload, idempotencyKey, baseUpdatedAt }, creates: undefined };
  }
  return { kind: 'send', request: { method: 'POST', path: target, json: rewriteReferences(kind, entry.body, translate), idempotencyKey, baseUpdatedAt }, creates: undefined };
}

const createdId = (body: unknown): string | undefined =>
  body && typeof body === 'object' && 'id' in body && typeof body.id === 'string' ? body.id : undefined;

/** The upstream's URL for an uploaded image, from its answer `{"data":{"imageUrl"}}` (the product's new `imageUrl` there). */
const uploadedImageUrl = (body: unknown): string | undefined => {
  const data = body && typeof body === 'object' && 'data' in body ? body.data : undefined;
  const url = data && typeof data === 'object' && 'imageUrl' in data ? data.imageUrl : undefined;
  return typeof url === 'string' && url !== '' ? url : undefined;
};

/** Kinds whose creations nothing else refers to: sales and identity checks go out several at a time. */
const CONCURRENT: ReadonlySet<SyncKind> = new Set(['order', 'identity-log']);
/** Calls in flight at once for those kinds. */
const WINDOW = 8;

/**
 * Pushes pending entries in order. Catalog writes go one at a time; sales and
 * identity checks, which nothing refers to, go up to `WINDOW` at a time (never
 * two of the same record). A refused entry is parked and the records it leaves
 * unfinished (the same record, or one whose creation it is) wait behind it; a
 * retryable failure ends the push with the entry still pending, except an
 * upload out of time or a call the upstream is still answering, which are set
 * aside for the next round with their record while the rest goes on.
 */
export async function pushPending(ctx: PushContext): Promise<PushReport> {
  const { db, orgId, queue, ids } = ctx;
  const report: PushReport = { pushed: 0, parked: 0, setAside: 0, stoppedBy: undefined };
  // Records with a parked entry, found per record as the queue reaches them: a backlog of parked
  // entries costs a round nothing for the records it does not touch.
  const blocked = new Set<string>();
  const hasParked = (entry: QueuedEntry) => {
    const kind = kindOf(entry.resource) ?? entry.resource;
    return queue.parkedResourcesOf(orgId, entry.resourceId).some((resource) => (kindOf(resource) ?? resource) === kind);
  };
  const inFlight = new Map<string, Promise<void>>();
  const now = () => ctx.clock.now().toISOString();
  const settle = () => Promise.all(inFlight.values());

  // Every mark of an earlier round is on disk: the round's first commit (its state) had an fsync.
  // So no entry below the oldest pending one will ever be sent again, and the upstream may forget their keys.
  const acknowledged = { [SYNC_ACKNOWLEDGED_HEADER]: String(queue.oldestPendingSeq(orgId) ?? 0) };

  const sendOne = async (entry: QueuedEntry, record: string, built: Extract<Built, { kind: 'send' }>) => {
    const update = built.creates === undefined && built.request.method === 'POST' && entry.operation !== 'delete';
    if (update && entry.sentAt === undefined) queue.recordSent(entry.seq, now());
    const result = await ctx.upstream.send({ ...built.request, headers: acknowledged });
    // An answer other than success or "still running" applied nothing: the next attempt is a first one again.
    if (update && result.kind === 'answer' && result.status !== 409 && (result.status < 200 || result.status >= 300)) queue.recordSent(entry.seq, undefined);
    // 412 to an update with a base: the record changed upstream meanwhile, by someone else. Settled:
    // the upstream's record comes back with the pull, since nothing keeps this field local any more.
    const overtaken = result.kind === 'answer' && result.status === 412 && built.request.baseUpdatedAt !== undefined;
    const verdict = overtaken ? ({ kind: 'accepted' } as const) : judge(result, ctx.clock.now());
    if (verdict.kind === 'accepted' && result.kind === 'answer') {
      const upstreamId = built.creates ? createdId(result.body) : undefined;
      const upstreamImage = built.request.upload ? uploadedImageUrl(result.body) : undefined;
      // Lost in a crash, this commit is redone: the entry goes again with its key and the upstream replays its answer.
      withoutFsync(db, () =>
        immediateTransaction(db, () => {
          if (built.creates && upstreamId) ids.record(orgId, built.creates, entry.resourceId, upstreamId);
          // The upstream's copy is the same picture: a pull that brings it back keeps the local file (keepLocalImage).
          if (upstreamImage) ids.record(orgId, 'image', String(entry.body.file), upstreamImage);
          queue.markPushed(entry.seq, result.status, now());
        }),
      );
      report.pushed += 1;
      ctx.onProgress?.(report.pushed);
    } else if (verdict.kind === 'park') {
      queue.park(entry.seq, verdict.status, verdict.message, now());
      blocked.add(record);
      report.parked += 1;
    } else if (verdict.kind === 'retry' && (verdict.reason === 'in-progress' || (verdict.reason === 'timeout' && built.request.upload))) {
      // A large image on a slow line, or an earlier copy the upstream is still
      // answering: the entry stays pending for the next round, its record's
      // later writes wait behind it, and the rest of the round goes on.
      queue.recordFailure(entry.seq, verdict.message);
      blocked.add(record);
      report.setAside += 1;
    } else if (verdict.kind === 'retry' || verdict.kind === 'refused') {
      queue.recordFailure(entry.seq, verdict.message);
      report.stoppedBy ??= verdict;
    }
  };

  let after = 0;
  // A sale still in an open group of writes is not sent before its commit: a power cut could take it back.
  const nextBatch = async () => {
    await ctx.committed?.();
    return queue.pendingAfter(orgId, after, BATCH);
  };
  for (let batch = await nextBatch(); batch.length > 0; batch = await nextBatch()) {
    for (const entry of batch) {
      after = entry.seq;
      const kind = kindOf(entry.resource);
      const record = `${kind ?? entry.resource}:${entry.resourceId}`;
      const concurrent = kind !== undefined && CONCURRENT.has(kind) && !inFlight.has(record);
      if (!concurrent) await settle();
      while (inFlight.size >= WINDOW) await Promise.race(inFlight.values());
      if (report.stoppedBy || !ctx.keepGoing()) break;
      if (blocked.has(record) || hasParked(entry)) {
        blocked.add(record);
        continue;
      }
      if (kind === undefined) {
        queue.park(entry.seq, 0, `no upstream call is known for resource "${entry.resource}"`, now());
        blocked.add(record);
        report.parked += 1;
        continue;
      }
      const built = build(ctx, entry, kind);
      if (built.kind === 'wait') {
        blocked.add(record);
        continue;
      }
      if (built.kind === 'superseded') {
        // Status 0: nothing was sent; the later image write carries the product's image.
        queue.markPushed(entry.seq, 0, now());
        continue;
      }
      const task = sendOne(entry, record, built).finally(() => inFlight.delete(record));
      inFlight.set(record, task);
      if (!concurrent) await task;
    }
    await settle();
    if (report.stoppedBy || !ctx.keepGoing()) break;
  }
  await settle();
  return report;
}
