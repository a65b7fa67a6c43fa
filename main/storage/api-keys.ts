import type { Db } from './database.js';

export type KeyKind = 'read' | 'write';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  kind: KeyKind;
  active: boolean;
  createdAt: string;
}

/** What a request's key resolves to: the key and its organization's features. */
export interface KeyGrant {
  keyId: string;
  keyHash: string;
  kind: KeyKind;
  active: boolean;
  orgId: string;
  features: string[];
}

interface RawKey {
  id: string;
  org_id: string;
  kind: KeyKind;
  active: number;
  created_at: string;
}

export function createApiKeyStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO api_keys (id, org_id, kind, key_hash, active, created_at) VALUES (?, ?, ?, ?, 1, ?)',
  );
  const byOrg = db.prepare<[string], RawKey>(
    'SELECT id, org_id, kind, active, created_at FROM api_keys WHERE org_id = ? ORDER BY created_at, id',
  );
  const byId = db.prepare<[string], RawKey>('SELECT id, org_id, kind, active, created_at FROM api_keys WHERE id = ?');
  const revoke = db.prepare('UPDATE api_keys SET active = 0, revoked_at = ? WHERE id = ?');
  const grant = db.prepare<[string], { key_id: string; key_hash: string; kind: KeyKind; active: number; org_id: string; features: string }>(
    `SELECT k.id AS key_id, k.key_hash, k.kind, k.active, o.id AS org_id, o.features
       FROM api_keys k JOIN organizations o ON o.id = k.org_id
      WHERE k.key_hash = ?`,
  );

  const fromRow = (row: RawKey): ApiKeyRow => ({
    id: row.id,
    orgId: row.org_id,
    kind: row.kind,
    active: row.active === 1,
    createdAt: row.created_at,
  });

  return {
    insert(key: { id: string; orgId: string; kind: KeyKind; keyHash: string; createdAt: string }): void {
      insert.run(key.id, key.orgId, key.kind, key.keyHash, key.createdAt);
    },
    listByOrg(orgId: string): ApiKeyRow[] {
      return byOrg.all(orgId).map(fromRow);
    },
    get(id: string): ApiKeyRow | undefined {
      const row = byId.get(id);
      return row ? fromRow(row) : undefined;
    },
    revoke(id: string, at: string): void {
      revoke.run(at, id);
    },
    /** Read straight from the file on every call, so a CLI change applies at once. */
    grantByHash(keyHash: string): KeyGrant | undefined {
      const row = grant.get(keyHash);
      if (!row) return undefined;
      return {
        keyId: row.key_id,
        keyHash: row.key_hash,
        kind: row.kind,
        active: row.active === 1,
        orgId: row.org_id,
        features: JSON.parse(row.features) as string[],
      };
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
