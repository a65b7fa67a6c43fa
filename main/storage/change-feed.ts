import type { Db } from './database.js';

type Row = Record<string, unknown>;

/** Where a change-feed walk stands: rows after `afterKey`/`afterId` (the cursor's row) whose `lastupdate` is later than `since`. */
export interface ChangedPageQuery {
  orgId: string;
  /** UTC ISO time with milliseconds, as `lastupdate` is stored. */
  since: string;
  afterKey?: string | undefined;
  afterId?: string | undefined;
  limit: number;
}

/**
 * The change feed of one table: every row changed after a time, soft-deleted
 * ones included, oldest change first, walked along its `(org_id, lastupdate, id)` index.
 * A walk's first page, most of the feed's reads (a store PC's pull usually
 * finds nothing new), has no cursor condition: an always-true row-value
 * comparison costs the statement about a third of its time.
 */
export function changedRows(db: Db, table: string): (q: ChangedPageQuery) => { row: Row; lastupdate: string }[] {
  // A bare `LIMIT ?` of a JS number binds a REAL, which SQLite converts on every run; the cast does it once.
  const select = (after: string) =>
    db.prepare<unknown[], Row>(
      `SELECT * FROM ${table} WHERE org_id = ? AND lastupdate > ? ${after} ORDER BY lastupdate, id LIMIT CAST(? AS INTEGER)`,
    );
  const first = select('');
  const next = select('AND (lastupdate, id) > (?, ?)');
  return (q) => {
    const rows = q.afterKey === undefined ? first.all(q.orgId, q.since, q.limit) : next.all(q.orgId, q.since, q.afterKey, q.afterId ?? '', q.limit);
    return rows.map((row) => ({ row, lastupdate: row.lastupdate as string }));
  };
}
