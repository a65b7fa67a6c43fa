import type { ListMeta } from '../../shared/api/common.js';
import type { CursorPosition } from '../rules/cursor.js';
import type { Clock } from './clock.js';
import { toPage } from './paging.js';
import { readTimeCursor } from './time-cursor.js';

/**
 * How long before a feed read its answer vouches for. A write takes its
 * `lastupdate` before its transaction may wait for the write lock (another
 * process on the same file, up to the database's 5 s busy timeout), so a row
 * committed after the read can carry a time up to that much earlier.
 */
export const FEED_MARGIN_MS = 5000;

/** Where a change-feed request starts: after `since`, and after the cursor's row when paging on. */
export function feedStart(updatedSince: string, cursor: string | undefined) {
  const after = readTimeCursor(cursor);
  return { since: new Date(updatedSince).toISOString(), afterKey: after?.key, afterId: after?.id };
}

/**
 * The time a feed page vouches for, read before its rows: every change up to
 * it is in this page or on the walk's later pages, and a change after it
 * shows up in the next walk from it.
 */
export function feedReadTime(clock: Clock): string {
  return new Date(clock.now().getTime() - FEED_MARGIN_MS).toISOString();
}

/** A page of the change feed: `limit + 1` rows in `(lastupdate, id)` order, with `meta.completeUntil`. */
export function feedPage<T>(
  rows: { record: T; lastupdate: string }[],
  limit: number,
  completeUntil: string,
  idOf: (record: T) => string,
): { data: T[]; meta: ListMeta } {
  const page = toPage(rows, limit, (r): CursorPosition => ({ key: r.lastupdate, id: idOf(r.record) }));
  return { data: page.data.map((r) => r.record), meta: { ...page.meta, completeUntil } };
}
