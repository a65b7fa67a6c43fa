import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';

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
 */
export function changedRows(db: Db, table: string): (q: ChangedPageQuery) => { row: Row; lastupdate: string }[] {
  const page = db.prepare<Row, Row>(
    `SELECT * FROM ${table}
      WHERE org_id = @orgId AND lastupdate > @since AND (lastupdate, id) > (@afterKey, @afterId)
      ORDER BY lastupdate, id LIMIT ${pageLimit('@limit')}`,
  );
  return (q) =>
    page
      .all({ orgId: q.orgId, since: q.since, afterKey: q.afterKey ?? '', afterId: q.afterId ?? '', limit: q.limit })
      .map((row) => ({ row, lastupdate: row.lastupdate as string }));
}
