import type { Db } from './database.js';

/** A registered card terminal as stored; the passphrase stays sealed. */
export interface TerminalRecord {
  id: string;
  orgId: string;
  store: string;
  name: string;
  protocol: 'nexo-local';
  host: string;
  port: number;
  poiId: string;
  keyIdentifier: string;
  keyVersion: number;
  sealedPassphrase: string;
  certificate: string;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  org_id: string;
  store: string;
  name: string;
  protocol: 'nexo-local';
  host: string;
  port: number;
  poi_id: string;
  key_identifier: string;
  key_version: number;
  sealed_passphrase: string;
  certificate: string;
  created_at: string;
  updated_at: string;
}

const fromRow = (row: Row): TerminalRecord => ({
  id: row.id,
  orgId: row.org_id,
  store: row.store,
  name: row.name,
  protocol: row.protocol,
  host: row.host,
  port: row.port,
  poiId: row.poi_id,
  keyIdentifier: row.key_identifier,
  keyVersion: row.key_version,
  sealedPassphrase: row.sealed_passphrase,
  certificate: row.certificate,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export function createTerminalStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO terminals (id, org_id, store, name, protocol, host, port, poi_id, key_identifier, key_version, sealed_passphrase, certificate, deleted, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)`,
  );
  const byId = db.prepare<[string, string], Row>('SELECT * FROM terminals WHERE id = ? AND org_id = ? AND deleted = 0');
  // Payments keep naming the terminal they went to, also after it was removed.
  const anyById = db.prepare<[string], Row>('SELECT * FROM terminals WHERE id = ?');
  const byOrg = db.prepare<[string], Row>('SELECT * FROM terminals WHERE org_id = ? AND deleted = 0 ORDER BY store, name, id');
  const remove = db.prepare<[string, string, string]>('UPDATE terminals SET deleted = 1, updated_at = ? WHERE id = ? AND org_id = ? AND deleted = 0');

  return {
    insert(t: TerminalRecord): void {
      insert.run(t.id, t.orgId, t.store, t.name, t.protocol, t.host, t.port, t.poiId, t.keyIdentifier, t.keyVersion, t.sealedPassphrase, t.certificate, t.createdAt, t.updatedAt);
    },
    get(orgId: string, id: string): TerminalRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** Also a removed one: the terminal an earlier payment went to. */
    find(id: string): TerminalRecord | undefined {
      const row = anyById.get(id);
      return row ? fromRow(row) : undefined;
    },
    list(orgId: string): TerminalRecord[] {
      return byOrg.all(orgId).map(fromRow);
    },
    remove(orgId: string, id: string, at: string): boolean {
      return remove.run(at, id, orgId).changes > 0;
    },
  };
}

export type TerminalStore = ReturnType<typeof createTerminalStore>;
