import type { Db } from './database.js';

/** A registered receipt printer as stored. */
export interface PrinterRecord {
  id: string;
  orgId: string;
  store: string;
  name: string;
  host: string;
  port: number;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  org_id: string;
  store: string;
  name: string;
  host: string;
  port: number;
  created_at: string;
  updated_at: string;
}

const fromRow = (row: Row): PrinterRecord => ({
  id: row.id,
  orgId: row.org_id,
  store: row.store,
  name: row.name,
  host: row.host,
  port: row.port,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createPrinterStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO printers (id, org_id, store, name, host, port, deleted, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?)',
  );
  const byId = db.prepare<[string, string], Row>('SELECT * FROM printers WHERE id = ? AND org_id = ? AND deleted = 0');
  const byOrg = db.prepare<[string], Row>('SELECT * FROM printers WHERE org_id = ? AND deleted = 0 ORDER BY store, name, id');
  const remove = db.prepare<[string, string, string]>('UPDATE printers SET deleted = 1, updated_at = ? WHERE id = ? AND org_id = ? AND deleted = 0');

  return {
    insert(p: PrinterRecord): void {
      insert.run(p.id, p.orgId, p.store, p.name, p.host, p.port, p.createdAt, p.updatedAt);
    },
    get(orgId: string, id: string): PrinterRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** The organization's printers that are not removed, by store and name. */
    list(orgId: string): PrinterRecord[] {
      return byOrg.all(orgId).map(fromRow);
    },
    /** Marks it removed; false when there was none to remove. */
    remove(orgId: string, id: string, at: string): boolean {
      return remove.run(at, id, orgId).changes > 0;
    },
  };
}

export type PrinterStore = ReturnType<typeof createPrinterStore>;
