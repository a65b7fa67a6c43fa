import type { KeyKind } from '../../shared/api/keys.js';
import type { Db } from './database.js';

export { KEY_KINDS, type KeyKind } from '../../shared/api/keys.js';

export interface ApiKeyRow {
  id: string;
  orgId: string;
  kind: KeyKind;
  /** The store a device key is bound to; null when unbound. */
  store: string | null;
  name: string | null;
  active: boolean;
  createdAt: string;
  /** Last request made with the key, as last written (at most about once a minute). */
  lastUsedAt: string | null;
}

/** What a request's key resolves to: the key and its organization's features. */
export interface KeyGrant {
  keyId: string;
  keyHash: string;
  kind: KeyKind;
  store: string | null;
  active: boolean;
  orgId: string;
  features: string[];
}

interface RawKey {
  id: string;
  org_id: string;
  kind: KeyKind;
  store: string | null;
  name: string | null;
  active: number;
  created_at: string;
  last_used_at: string | null;
}

const KEY_COLUMNS = 'id, org_id, kind, store, name, active, created_at, last_used_at';

/** The columns a key's grant is read from, joined with its organization's. */
export interface GrantRow {
  key_id: string;
  key_hash: string;
  kind: KeyKind;
  store: string | null;
  org_id: string;
  features: string;
}

export const grantFromRow = (row: GrantRow, active: boolean): KeyGrant => ({
  keyId: row.key_id,
  keyHash: row.key_hash,
  kind: row.kind,
  store: row.store,
  active,
  orgId: row.org_id,
  features: JSON.parse(row.features) as string[],
});

export function createApiKeyStore(db: Db) {
  const insert = db.prepare(
    'INSERT INTO api_keys (id, org_id, kind, key_hash, store, name, active, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)',
  );
  const byOrg = db.prepare<[string], RawKey>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE org_id = ? ORDER BY created_at, id`);
  const byId = db.prepare<[string], RawKey>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = ?`);
  const revoke = db.prepare('UPDATE api_keys SET active = 0, revoked_at = ? WHERE id = ?');
  const used = db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?');
  const grant = db.prepare<[string], GrantRow & { active: number }>(
    `SELECT k.id AS key_id, k.key_hash, k.kind, k.store, k.active, o.id AS org_id, o.features
       FROM api_keys k JOIN organizations o ON o.id = k.org_id
      WHERE k.key_hash = ?`,
  );

  const fromRow = (row: RawKey): ApiKeyRow => ({
    id: row.id,
    orgId: row.org_id,
    kind: row.kind,
    store: row.store,
    name: row.name,
    active: row.active === 1,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  });

  return {
    insert(key: { id: string; orgId: string; kind: KeyKind; keyHash: string; store: string | null; name: string | null; createdAt: string }): void {
      insert.run(key.id, key.orgId, key.kind, key.keyHash, key.store, key.name, key.createdAt);
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
    recordUse(id: string, at: string): void {
      used.run(at, id);
    },
    /** Read straight from the file on every call, so a CLI change applies at once. */
    grantByHash(keyHash: string): KeyGrant | undefined {
      const row = grant.get(keyHash);
      return row && grantFromRow(row, row.active === 1);
    },
  };
}

export type ApiKeyStore = ReturnType<typeof createApiKeyStore>;
