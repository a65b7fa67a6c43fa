import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { ProductListener } from '../services/products.js';
import { withoutFsync } from '../storage/database.js';
import type { ProductRecord } from '../storage/products.js';
import { keepLocalImage, mergeRecord, sameRecord } from './merge.js';
import type { PhaseContext } from './phase-context.js';
import type { FeedMarks } from './config-store.js';
import type { PullTarget } from './pull-targets.js';
import { FEED_ORIGIN, listedAll, pagePath, walkFor, walkName, type PullPlan } from './pull-walk.js';
import { rewriteReferences, type SyncKind } from './resources.js';
import { judge, type Verdict } from './retry-policy.js';
import { createWalkStore, type WalkId, type WalkPosition, type WalkStore } from './walk-store.js';
import { immediateTransaction } from '../storage/transactions.js';

type Row = Record<string, unknown>;

export interface PullContext extends PhaseContext {
  /** Names the upstream in a saved walk: another upstream's cursor is never resumed. */
  upstreamUrl: string;
  targets: PullTarget[];
  plan: PullPlan;
  /** Told about every product the pull changed, after its chunk is committed (search index, image files). */
  productListeners: ProductListener[];
}

export interface PullReport {
  /** Local records created or changed by the pull. */
  pulled: number;
  /** Where the next change-feed walks start: the upstream's `completeUntil` of each feed walked to its end. */
  marks: FeedMarks;
  stoppedBy: Exclude<Verdict, { kind: 'accepted' }> | undefined;
}

/**
 * Work done between two turns of the event loop, in milliseconds: rows are
 * applied (and the search index told) in slices this long, commit included,
 * so reads stay quick during a pull of 100,000 products.
 */
const SLICE_MS = 4;

/**
 * How long a slice's commit takes, learnt as the pull goes (a moving
 * average), so that applying rows stops early enough for the commit to fit
 * in the slice. A commit writes the slice's pages to the WAL, and every 4 MB
 * of WAL also copies them into the database file, which takes 5 to 10 ms.
 */
class CommitTime {
  expected = 0;

  learn(ms: number): void {
    this.expected = (this.expected + ms) / 2;
  }
}

/**
 * Reads each collection once, as the plan says (the change feed, or the whole
 * list), and applies it field by field without queueing anything. Removes
 * local records only after a walk that listed every record of its collection.
 * Each page's last rows commit with where the walk goes on, so a pull cut off
 * resumes from the page after the last one applied (and skips collections
 * already read to their end).
 */
export async function pullCatalog(ctx: PullContext): Promise<PullReport> {
  const report: PullReport = { pulled: 0, marks: { ...ctx.plan.marks }, stoppedBy: undefined };
  const localIds = new Map<SyncKind, Map<string, string>>();
  const commitTime = new CommitTime();
  const walks = createWalkStore(ctx.db, ctx.orgId);
  const walked: WalkId[] = [];
  const toLocal = (kind: SyncKind, id: string) => localIds.get(kind)?.get(id) ?? id;
  targets: for (const target of ctx.targets) {
    const known = ctx.ids.byUpstreamId(ctx.orgId, target.kind);
    localIds.set(target.kind, known);
    let walk = walkFor(target, ctx.plan);
    if (walk.kind === 'skip') continue;
    // Only a walk that may remove records needs to know, after a cut, what it listed before.
    let walkId: WalkId = { kind: target.kind, name: walkName(ctx.upstreamUrl, walk), removes: walk.kind === 'list' || walk.whole };
    walked.push(walkId);
    const saved = walks.resume(walkId);
    if (saved?.done) {
      if (walk.kind === 'feed' && saved.completeUntil !== undefined) report.marks[target.kind] = saved.completeUntil;
      continue;
    }
    const seen = saved && walkId.removes ? await walks.seen(target.kind, yieldToEventLoop) : new Set<string>();
    let cursor = saved?.nextCursor;
    let completeUntil = saved?.completeUntil;
    let lastPageRows = 0;
    let readAgain = false;
    do {
      readAgain = false;
      const result = await ctx.upstream.send({ method: 'GET', path: pagePath(target, walk, cursor) });
      // 410: the upstream purged deletions newer than the mark, so the feed from it could miss one;
      // the collection is read whole from the origin instead, which removes what it no longer lists.
      if (result.kind === 'answer' && result.status === 410 && walk.kind === 'feed' && !walk.whole) {
        walk = { kind: 'feed', since: FEED_ORIGIN, whole: true };
        walkId = { kind: target.kind, name: walkName(ctx.upstreamUrl, walk), removes: true };
        walked.push(walkId);
        completeUntil = undefined;
        cursor = undefined;
        readAgain = true;
        continue;
      }
      const verdict = judge(result, ctx.clock.now());
      // The organization upstream lacks the feature: its list is refused, not empty, so nothing is removed.
      if (verdict.kind === 'park' && verdict.message === 'Feature not available') continue targets;
      if (verdict.kind !== 'accepted' || result.kind !== 'answer') {
        report.stoppedBy = verdict.kind === 'accepted' ? undefined : verdict;
        return report;
      }
      const page = result.body as { data: Row[]; meta?: { nextCursor?: string; completeUntil?: string } };
      // The first page's time: changes made while the walk goes on are read again by the next one.
      completeUntil ??= page.meta?.completeUntil;
      cursor = walk.kind === 'feed' || target.paged ? page.meta?.nextCursor : undefined;
      lastPageRows = page.data.length;
      // Saved with the page's last rows; the last page saves nothing, the walk's end does.
      const onward = cursor === undefined ? undefined : { nextCursor: cursor, completeUntil, done: false };
      if (page.data.length === 0 && onward) walks.save(walkId, onward);
      const lookup: Lookup = { known, seen, toLocal, walks, walk: walkId };
      for (let next = 0; next < page.data.length; ) {
        if (!ctx.keepGoing()) return report;
        const applied = applySlice(ctx, target, page.data, next, lookup, commitTime, onward);
        next = applied.next;
        report.pulled += applied.changed;
        await yieldToEventLoop();
        await notifyProducts(ctx, target, applied.products);
      }
    } while (cursor || readAgain);
    if (walk.kind === 'feed' && completeUntil !== undefined) report.marks[target.kind] = completeUntil;
    if (listedAll(target, walk, lastPageRows)) {
      await yieldToEventLoop();
      report.pulled += await removeGone(ctx, target, known, seen);
    }
    await walks.finish(walkId, completeUntil, yieldToEventLoop);
  }
  walks.clear(walked);
  return report;
}

interface Lookup {
  known: Map<string, string>;
  seen: Set<string>;
  toLocal: (kind: SyncKind, id: string) => string;
  walks: WalkStore;
  /** A walk that may remove records at its end keeps what it lists with its position. */
  walk: WalkId;
}

/**
 * Applies rows from `start` in one transaction lasting about `SLICE_MS`, its
 * commit included; the slice that applies the page's last row saves `onward`,
 * where the walk goes on.
 */
function applySlice(
  ctx: PullContext,
  target: PullTarget,
  rows: Row[],
  start: number,
  lookup: Lookup,
  commitTime: CommitTime,
  onward: WalkPosition | undefined,
) {
  const now = ctx.clock.now().toISOString();
  const products: [ProductRecord | undefined, string][] = [];
  const ends = performance.now() + SLICE_MS - commitTime.expected;
  let applied = 0;
  // Pulled rows can be pulled again: their commits need no fsync of their own.
  const result = withoutFsync(ctx.db, () =>
    immediateTransaction(ctx.db, () => {
      const localFileOf = (upstreamUrl: string) => ctx.ids.localOf(ctx.orgId, 'image', upstreamUrl);
      let changed = 0;
      let next = start;
      while (next < rows.length && (next === start || performance.now() < ends)) {
        const row = rows[next++] as Row;
        const upstreamId = String(row.id);
        lookup.seen.add(upstreamId);
        if (lookup.walk.removes) lookup.walks.addSeen(target.kind, upstreamId);
        const localId = lookup.known.get(upstreamId) ?? upstreamId;
        const local = target.get(ctx.orgId, localId);
        // The feed also lists deletions: one of a record never seen here changes nothing.
        if (!local && row.deleted === true) continue;
        const incoming = keepLocalImage(local, rewriteReferences(target.kind, { ...row, id: localId }, lookup.toLocal), localFileOf);
        // Read inside the transaction: a local write committed meanwhile is seen here.
        const unpushed = local ? ctx.queue.unpushedFieldsOf(ctx.orgId, localId) : undefined;
        // As with a record gone from a whole list: a local change still queued keeps it.
        if (local && row.deleted === true && unpushed) incoming.deleted = local.deleted;
        const raw = mergeRecord(local, incoming, unpushed, target.keep);
        const merged = target.stored ? target.stored(raw) : raw;
        if (!lookup.known.has(upstreamId)) {
          ctx.ids.record(ctx.orgId, target.kind, localId, upstreamId);
          lookup.known.set(upstreamId, localId);
        }
        if (local && sameRecord(local, merged)) continue;
        target.write(ctx.orgId, merged, local !== undefined, now);
        if (target.kind === 'product') products.push([local as ProductRecord | undefined, localId]);
        changed += 1;
      }
      if (next === rows.length && onward) lookup.walks.save(lookup.walk, onward);
      applied = performance.now();
      return { next, changed, products };
    }),
  );
  commitTime.learn(performance.now() - applied);
  return result;
}

/** Soft-deletes records known upstream that the upstream no longer lists, unless deleting is a local change still queued. */
async function removeGone(ctx: PullContext, target: PullTarget, known: Map<string, string>, seen: Set<string>): Promise<number> {
  const now = ctx.clock.now().toISOString();
  const changedProducts: [ProductRecord | undefined, string][] = [];
  const count = immediateTransaction(ctx.db, () => {
    let removed = 0;
    for (const [upstreamId, localId] of known) {
      if (seen.has(upstreamId)) continue;
      const local = target.get(ctx.orgId, localId);
      if (!local || local.deleted === true || ctx.queue.unpushedFieldsOf(ctx.orgId, localId)) continue;
      target.write(ctx.orgId, { ...local, deleted: true }, true, now);
      if (target.kind === 'product') changedProducts.push([local as ProductRecord, localId]);
      removed += 1;
    }
    return removed;
  });
  await notifyProducts(ctx, target, changedProducts);
  return count;
}

/** Tells the product listeners (search index, image files) about committed changes, in slices of `SLICE_MS`. */
async function notifyProducts(ctx: PullContext, target: PullTarget, changed: [ProductRecord | undefined, string][]): Promise<void> {
  let ends = performance.now() + SLICE_MS;
  for (const [before, id] of changed) {
    const after = target.get(ctx.orgId, id) as ProductRecord;
    for (const listener of ctx.productListeners) listener.productWritten(before, after);
    if (performance.now() > ends) {
      await yieldToEventLoop();
      ends = performance.now() + SLICE_MS;
    }
  }
}
