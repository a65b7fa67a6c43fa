import type { Db } from './database.js';

export interface OrganizationRow {
  id: string;
  name: string;
  features: string[];
  createdAt: string;
}

interface RawOrganization {
  id: string;
  name: string;
  features: string;
  created_at: string;
}

function fromRow(row: RawOrganization): OrganizationRow {
  return { id: row.id, name: row.name, features: JSON.parse(row.features) as string[], createdAt: row.created_at };
}

export function createOrganizationStore(db: Db) {
  const insert = db.prepare('INSERT INTO organizations (id, name, features, created_at) VALUES (?, ?, ?, ?)');
  const byId = db.prepare<[string], RawOrganization>('SELECT * FROM organizations WHERE id = ?');
  const all = db.prepare<[], RawOrganization>('SELECT * FROM organizations ORDER BY created_at, id');
  const count = db.prepare<[], number>('SELECT count(*) FROM organizations').pluck();
  const setFeatures = db.prepare('UPDATE organizations SET features = ? WHERE id = ?');

  return {
    insert(org: OrganizationRow): void {
      insert.run(org.id, org.name, JSON.stringify(org.features), org.createdAt);
    },
    get(id: string): OrganizationRow | undefined {
      const row = byId.get(id);
      return row ? fromRow(row) : undefined;
    },
    list(): OrganizationRow[] {
      return all.all().map(fromRow);
    },
    count(): number {
      return count.get() as number;
    },
    setFeatures(id: string, features: string[]): void {
      setFeatures.run(JSON.stringify(features), id);
    },
  };
}

export type OrganizationStore = ReturnType<typeof createOrganizationStore>;
