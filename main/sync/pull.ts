import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Clock } from '../services/clock.js';
import type { ProductListener } from '../services/products.js';
import type { Db } from '../storage/database.js';
import type { ProductRecord } from '../storage/products.js';
import type { IdMap } from './id-map.js';
import { mergeRecord, sameRecord } from './merge.js';
import type { OutboxQueue } from './outbox-queue.js';
import type { PullTarget } from './pull-targets.js';
import { rewriteReferences, type SyncKind } from './resources.js';
import { judge, type Verdict } from './retry-policy.js';
import type { Upstream } from './upstream.js';

type Row = Record<string, unknown>;

export interface PullContext {
  db: Db;
  orgId: string;
  queue: OutboxQueue;
  ids: IdMap;
  upstream: Upstream;
  clock: Clock;
  targets: PullTarget[];
  /** Told about every product the pull changed, after its chunk is committed (search index, image files). */
  productListeners: ProductListener[];
  keepGoing: () => boolean;
}

export interface PullReport {
  /** Local records created or changed by the pull. */
  pulled: number;
  stoppedBy: Exclude<Verdict, { kind: 'accepted' }> | undefined;
}

/** Upstream page size: the largest the v1 API serves. */
const PAGE = 5000;
/** Rows applied per transaction; the event loop gets a turn between chunks, so reads stay quick. */
const CHUNK = 100;

/** Reads the upstream catalog by cursor paging and applies it field by field, without queueing anything. */
export async function pullCatalog(ctx: PullContext): Promise<PullReport> {
  const report: PullReport = { pulled: 0, stoppedBy: undefined };
  const localIds = new Map<SyncKind, Map<string, string>>();
  const toLocal = (kind: SyncKind, id: string) => localIds.get(kind)?.get(id) ?? id;
  for (const target of ctx.targets) {
    const known = ctx.ids.byUpstreamId(ctx.orgId, target.kind);
    localIds.set(target.kind, known);
    const seen = new Set<string>();
    let cursor: string | undefined;
    do {
      const query = `limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const result = await ctx.upstream.send({ method: 'GET', path: `${target.path}?${query}` });
      const verdict = judge(result, ctx.clock.now());
      if (verdict.kind === 'park' && verdict.message === 'Feature not available') break;
      if (verdict.kind !== 'accepted' || result.kind !== 'answer') {
        report.stoppedBy = verdict.kind === 'accepted' ? undefined : verdict;
        return report;
      }
      const page = result.body as { data: Row[]; meta?: { nextCursor?: string } };
      cursor = target.paged ? page.meta?.nextCursor : undefined;
      for (let i = 0; i < page.data.length; i += CHUNK) {
        if (!ctx.keepGoing()) return report;
        report.pulled += applyChunk(ctx, target, page.data.slice(i, i + CHUNK), { known, seen, toLocal });
        await yieldToEventLoop();
      }
    } while (cursor);
    report.pulled += removeGone(ctx, target, known, seen);
  }
  return report;
}

interface Lookup {
  known: Map<string, string>;
  seen: Set<string>;
  toLocal: (kind: SyncKind, id: string) => string;
}

function applyChunk(ctx: PullContext, target: PullTarget, rows: Row[], lookup: Lookup): number {
  const now = ctx.clock.now().toISOString();
  const changedProducts: [ProductRecord | undefined, string][] = [];
  const changed = ctx.db.transaction(() => {
    // Read inside the transaction: a local write committed meanwhile is seen here.
    const unpushed = ctx.queue.unpushedFields(ctx.orgId);
    let count = 0;
    for (const row of rows) {
      const upstreamId = String(row.id);
      lookup.seen.add(upstreamId);
      const localId = lookup.known.get(upstreamId) ?? upstreamId;
      const local = target.get(ctx.orgId, localId);
      const incoming = rewriteReferences(target.kind, { ...row, id: localId }, lookup.toLocal);
      const merged = mergeRecord(local, incoming, unpushed.get(localId), target.keep);
      if (!lookup.known.has(upstreamId)) {
        ctx.ids.record(ctx.orgId, target.kind, localId, upstreamId);
        lookup.known.set(upstreamId, localId);
      }
      if (local && sameRecord(local, merged)) continue;
      target.write(ctx.orgId, merged, local !== undefined, now);
      if (target.kind === 'product') changedProducts.push([local as ProductRecord | undefined, localId]);
      count += 1;
    }
    return count;
  })();
  notifyProducts(ctx, target, changedProducts);
  return changed;
}

/** Soft-deletes records known upstream that the upstream no longer lists, unless deleting is a local change still queued. */
function removeGone(ctx: PullContext, target: PullTarget, known: Map<string, string>, seen: Set<string>): number {
  const now = ctx.clock.now().toISOString();
  const changedProducts: [ProductRecord | undefined, string][] = [];
  const count = ctx.db.transaction(() => {
    const unpushed = ctx.queue.unpushedFields(ctx.orgId);
    let removed = 0;
    for (const [upstreamId, localId] of known) {
      if (seen.has(upstreamId)) continue;
      const local = target.get(ctx.orgId, localId);
      if (!local || local.deleted === true || unpushed.has(localId)) continue;
      target.write(ctx.orgId, { ...local, deleted: true }, true, now);
      if (target.kind === 'product') changedProducts.push([local as ProductRecord, localId]);
      removed += 1;
    }
    return removed;
  })();
  notifyProducts(ctx, target, changedProducts);
  return count;
}

function notifyProducts(ctx: PullContext, target: PullTarget, changed: [ProductRecord | undefined, string][]): void {
  for (const [before, id] of changed) {
    const after = target.get(ctx.orgId, id) as ProductRecord;
    for (const listener of ctx.productListeners) listener.productWritten(before, after);
  }
}
