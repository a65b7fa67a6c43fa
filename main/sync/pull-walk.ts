import type { FeedMarks } from './config-store.js';
import type { PullTarget } from './pull-targets.js';
import type { UpstreamOffer } from './upstream-offer.js';

/** Largest page the v1 contract allows (`limit`, 1 to 5000): the fewest requests per pull. */
export const PAGE = 5000;

/** The start of every change feed: a walk from here reads every record, deleted ones included. */
export const FEED_ORIGIN = '1970-01-01T00:00:00.000Z';

/**
 * `changes`: what changed since the last pull, by the change feed; a
 * collection without a feed is read whole only when `wholeWithoutFeed` (a
 * `sync run` asked for it), otherwise it waits for the next full pull.
 * `full`: every collection read whole, with removals.
 */
export interface PullPlan {
  mode: 'changes' | 'full';
  wholeWithoutFeed: boolean;
  offer: UpstreamOffer;
  marks: FeedMarks;
}

/** How one collection is read in this pull. */
export type Walk =
  /** The change feed from `since`; `whole` when it starts at the origin (a first or full pull), which may then remove records. */
  | { kind: 'feed'; since: string; whole: boolean }
  /** The plain v1 list: every active record, which may then remove the others. */
  | { kind: 'list' }
  | { kind: 'skip' };

export function walkFor(target: PullTarget, plan: PullPlan): Walk {
  const mark = plan.marks[target.kind];
  if (plan.offer.feeds.has(target.path)) {
    if (plan.mode === 'changes' && mark !== undefined) return { kind: 'feed', since: mark, whole: false };
    return { kind: 'feed', since: FEED_ORIGIN, whole: true };
  }
  return plan.mode === 'full' || plan.wholeWithoutFeed ? { kind: 'list' } : { kind: 'skip' };
}

/** A walk's name as its saved position keeps it: only the same walk of the same upstream resumes from it. */
export function walkName(upstreamUrl: string, walk: Exclude<Walk, { kind: 'skip' }>): string {
  return walk.kind === 'feed' ? `${upstreamUrl} feed ${walk.since}` : `${upstreamUrl} list`;
}

/** The request for one page of a walk. */
export function pagePath(target: PullTarget, walk: Exclude<Walk, { kind: 'skip' }>, cursor: string | undefined): string {
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (walk.kind === 'feed') query.set('updatedSince', walk.since);
  if (cursor) query.set('cursor', cursor);
  return `${target.path}?${query.toString()}`;
}

/**
 * Whether the walk has read every record it stands for, so that what it did
 * not list may be removed locally. The plain supplier list is not paged: an
 * answer as long as the `limit` asked may have left records out, and only a
 * shorter one is complete.
 */
export function listedAll(target: PullTarget, walk: Exclude<Walk, { kind: 'skip' }>, lastPageRows: number): boolean {
  if (walk.kind === 'feed') return walk.whole;
  return target.paged || lastPageRows < PAGE;
}
