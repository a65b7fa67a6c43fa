import type { Db } from './database.js';

export type AlertKind = 'terminal-unreachable' | 'printer-error' | 'payment-without-order' | 'upstream-unreachable' | 'disk-low' | 'store-pc-silent';

export interface AlertRecord {
  id: string;
  orgId: string;
  store: string;
  kind: AlertKind;
  /** What was seen, in words (a printer's name and state, the upstream's error). */
  detail: string;
  since: string;
  alertedAt: string | null;
  mailed: boolean;
  endedAt: string | null;
}

interface Row {
  id: string;
  org_id: string;
  store: string;
  kind: AlertKind;
  detail: string;
  since: string;
  alerted_at: string | null;
  mailed: number;
  ended_at: string | null;
}

const fromRow = (row: Row): AlertRecord => ({
  id: row.id,
  orgId: row.org_id,
  store: row.store,
  kind: row.kind,
  detail: row.detail,
  since: row.since,
  alertedAt: row.alerted_at,
  mailed: row.mailed === 1,
  endedAt: row.ended_at,
});

export function createAlertStore(db: Db) {
  const insert = db.prepare('INSERT INTO alerts (id, org_id, store, kind, detail, since) VALUES (?, ?, ?, ?, ?, ?)');
  const open = db.prepare<[string], Row>('SELECT * FROM alerts WHERE org_id = ? AND ended_at IS NULL');
  const alert = db.prepare<[string, number, string, string]>('UPDATE alerts SET alerted_at = ?, mailed = ?, detail = ? WHERE id = ?');
  const end = db.prepare<[string, string]>('UPDATE alerts SET ended_at = ? WHERE id = ?');
  const drop = db.prepare<[string]>('DELETE FROM alerts WHERE id = ?');
  const mailedSince = db.prepare<[string, string, string, string], number>(
    'SELECT 1 FROM alerts WHERE org_id = ? AND store = ? AND kind = ? AND mailed = 1 AND alerted_at > ? LIMIT 1',
  ).pluck();
  const listed = db.prepare<[string, number], Row>(
    'SELECT * FROM alerts WHERE org_id = ? AND alerted_at IS NOT NULL ORDER BY ended_at IS NOT NULL, COALESCE(ended_at, since) DESC, id DESC LIMIT ?',
  );
  const purge = db.prepare<[string, number]>('DELETE FROM alerts WHERE id IN (SELECT id FROM alerts WHERE ended_at IS NOT NULL AND ended_at < ? LIMIT ?)');
  return {
    insert(record: Pick<AlertRecord, 'id' | 'orgId' | 'store' | 'kind' | 'detail' | 'since'>): void {
      insert.run(record.id, record.orgId, record.store, record.kind, record.detail, record.since);
    },
    /** Conditions of the organization that have not ended, alerted or not yet. */
    open(orgId: string): AlertRecord[] {
      return open.all(orgId).map(fromRow);
    },
    markAlerted(id: string, at: string, mailed: boolean, detail: string): void {
      alert.run(at, mailed ? 1 : 0, detail, id);
    },
    markEnded(id: string, at: string): void {
      end.run(at, id);
    },
    /** A condition that ended before it became an alert. */
    drop(id: string): void {
      drop.run(id);
    },
    /** Whether an alert mail of this kind went to this store after `after`. */
    mailedSince(orgId: string, store: string, kind: AlertKind, after: string): boolean {
      return mailedSince.get(orgId, store, kind, after) !== undefined;
    },
    /** Alerts, open ones first, then the most recently ended. */
    list(orgId: string, limit: number): AlertRecord[] {
      return listed.all(orgId, limit).map(fromRow);
    },
    purgeEnded(before: string, limit: number): number {
      return purge.run(before, limit).changes;
    },
  };
}

export type AlertStore = ReturnType<typeof createAlertStore>;
