import type { BlockedIdentity, IdentityLog } from '../../shared/api/identity-logs.js';
import { columnMapping, insertSql } from './column-map.js';
import type { Db } from './database.js';
import { pageLimit } from './page-limit.js';
import { changedRows, type ChangedPageQuery } from './change-feed.js';

const logMapping = columnMapping({
  id: ['id', 'text'],
  access: ['access', 'bool'],
  logDate: ['log_date', 'text'],
  instance: ['org_id', 'text'],
  logType: ['log_type', 'text'],
  appVersion: ['app_version', 'text'],
  store: ['store', 'text'],
  source: ['source', 'text'],
  user: ['user', 'text'],
  birthDate: ['birth_date', 'text'],
  imageUrl: ['image_url', 'text'],
  rawText: ['raw_text', 'text'],
});

const blockedMapping = columnMapping({
  id: ['id', 'text'],
  date: ['date', 'text'],
  comment: ['comment', 'text'],
  rawMrz: ['raw_mrz', 'text'],
  first_name: ['first_name', 'text'],
  last_name: ['last_name', 'text'],
  birthDate: ['birth_date', 'text'],
  deleted: ['deleted', 'bool'],
});

type Row = Record<string, unknown>;

const logFromRow = (row: Row) => logMapping.fromRow(row) as IdentityLog;
const blockedFromRow = (row: Row) => blockedMapping.fromRow(row) as BlockedIdentity;

export interface IdentityLogPageQuery {
  orgId: string;
  store?: string | undefined;
  source?: string | undefined;
  access?: boolean | undefined;
  /** Inclusive bounds of logDate, in stored form (UTC with milliseconds). */
  start?: string | undefined;
  end?: string | undefined;
  /** Serve rows strictly after this position in newest-first order. */
  after?: { logDate: string; id: string } | undefined;
  limit: number;
}

const LOG_PAGE = (afterClause: string) => `SELECT * FROM identity_logs
  WHERE org_id = @orgId
    AND log_date >= @start AND log_date <= @end
    AND (@store IS NULL OR store = @store)
    AND (@source IS NULL OR source = @source)
    AND (@access IS NULL OR access = @access)
    ${afterClause}
  ORDER BY log_date DESC, id DESC
  LIMIT ${pageLimit('@limit')}`;

export function createIdentityLogStore(db: Db) {
  const insertLog = db.prepare(insertSql('identity_logs', [...logMapping.columns, 'createdate']));
  const firstLogPage = db.prepare<Row, Row>(LOG_PAGE(''));
  const nextLogPage = db.prepare<Row, Row>(LOG_PAGE('AND (log_date < @afterDate OR (log_date = @afterDate AND id < @afterId))'));

  const blockedColumns = [...blockedMapping.columns, 'org_id', 'lastupdate'];
  const insertBlocked = db.prepare(insertSql('blocked_identities', blockedColumns));
  const updateBlocked = db.prepare(
    `UPDATE blocked_identities SET comment = @comment, first_name = @first_name, last_name = @last_name,
       birth_date = @birth_date, deleted = @deleted, lastupdate = @lastupdate
     WHERE id = @id AND org_id = @org_id`,
  );
  const blockedById = db.prepare<[string, string], Row>('SELECT * FROM blocked_identities WHERE id = ? AND org_id = ?');
  const blockedPage = db.prepare<[string, string, number], Row>(
    `SELECT * FROM blocked_identities WHERE org_id = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ${pageLimit('?')}`,
  );
  const activeBlocked = db.prepare<[string], Row>('SELECT * FROM blocked_identities WHERE org_id = ? AND deleted = 0');
  const changedBlocked = changedRows(db, 'blocked_identities');

  return {
    insertLog(log: IdentityLog, now: string): void {
      insertLog.run({ ...logMapping.toRow(log), createdate: now });
    },
    logPage(q: IdentityLogPageQuery): IdentityLog[] {
      const params: Row = {
        orgId: q.orgId,
        // Open bounds as strings below and above every stored timestamp, so the
        // window is always an index range.
        start: q.start ?? '',
        end: q.end ?? '~',
        store: q.store ?? null,
        source: q.source ?? null,
        access: q.access === undefined ? null : q.access ? 1 : 0,
        limit: q.limit,
      };
      if (!q.after) return firstLogPage.all(params).map(logFromRow);
      return nextLogPage.all({ ...params, afterDate: q.after.logDate, afterId: q.after.id }).map(logFromRow);
    },

    insertBlocked(orgId: string, blocked: BlockedIdentity, now: string): void {
      insertBlocked.run({ ...blockedMapping.toRow(blocked), org_id: orgId, lastupdate: now });
    },
    /** Writes the fields an update or delete may change. */
    updateBlocked(orgId: string, blocked: BlockedIdentity, now: string): void {
      updateBlocked.run({ ...blockedMapping.toRow(blocked), org_id: orgId, lastupdate: now });
    },
    getBlocked(orgId: string, id: string): BlockedIdentity | undefined {
      const row = blockedById.get(id, orgId);
      return row ? blockedFromRow(row) : undefined;
    },
    /** Active blocked identities with an id greater than `afterId`, in id order. */
    blockedPage(orgId: string, afterId: string | undefined, limit: number): BlockedIdentity[] {
      return blockedPage.all(orgId, afterId ?? '', limit).map(blockedFromRow);
    },
    /** Every active blocked identity of the organization, for a verdict. */
    activeBlocked(orgId: string): BlockedIdentity[] {
      return activeBlocked.all(orgId).map(blockedFromRow);
    },
    /** The change feed: blocked identities changed after `q.since`, deleted ones included, with their `lastupdate`. */
    changedBlocked(q: ChangedPageQuery): { record: BlockedIdentity; lastupdate: string }[] {
      return changedBlocked(q).map(({ row, lastupdate }) => ({ record: blockedFromRow(row), lastupdate }));
    },
  };
}

export type IdentityLogStore = ReturnType<typeof createIdentityLogStore>;
