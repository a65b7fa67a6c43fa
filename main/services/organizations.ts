import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { FEATURES, isFeature, type Feature } from '../../shared/features.js';
import { newId } from '../rules/ids.js';
import { KEY_KINDS, MAX_KEY_NAME_LENGTH, type CurrentKey } from '../../shared/api/keys.js';
import { type ApiKeyRow, type ApiKeyStore, type KeyGrant, type KeyKind } from '../storage/api-keys.js';
import type { Db } from '../storage/database.js';
import { dataVersion } from '../storage/data-version.js';
import type { OrganizationStore } from '../storage/organizations.js';
import type { StoreStore } from '../storage/stores.js';
import type { Clock } from './clock.js';
import { BadRequest, NotFound } from './errors.js';
import { createKeyGrantCache } from './key-grants.js';
import { createKeyUsage } from './key-usage.js';
import { immediateTransaction } from '../storage/transactions.js';

export interface OrganizationSummary {
  id: string;
  name: string;
  features: Feature[];
}

export interface CreatedOrganization extends OrganizationSummary {
  readKey: string;
  writeKey: string;
}

export interface CreatedKey {
  id: string;
  kind: KeyKind;
  /** The store a device key is bound to; null when unbound. */
  store: string | null;
  /** The secret, shown this once. */
  key: string;
}

/** A key as staff see it: never the secret. */
export type KeySummary = Omit<ApiKeyRow, 'orgId'>;


const KEY_PREFIX: Record<KeyKind, string> = { read: 'rk_', write: 'wk_', kiosk: 'kk_', scale: 'sk_' };
/** Kinds that may be bound to a store; a kiosk must be. */
const STORE_BOUND_KINDS: readonly KeyKind[] = ['kiosk', 'scale'];

const isKeyKind = (kind: string): kind is KeyKind => (KEY_KINDS as readonly string[]).includes(kind);

const summaryOf = ({ orgId: _orgId, ...key }: ApiKeyRow): KeySummary => key;

/** SHA-256 of a key: the only form a key is ever stored in. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Validates feature names given by an operator, naming any unknown one. */
export function parseFeatures(names: readonly string[]): Feature[] {
  const unknown = names.filter((name) => !isFeature(name));
  if (unknown.length > 0) {
    throw new BadRequest(`Unknown feature ${unknown.map((n) => JSON.stringify(n)).join(', ')}; known features: ${FEATURES.join(', ')}`);
  }
  return [...new Set(names as Feature[])].sort();
}

export function createOrganizationService(deps: {
  db: Db;
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  stores: StoreStore;
  clock: Clock;
}) {
  const { db, organizations, apiKeys, stores, clock } = deps;
  const usage = createKeyUsage({ apiKeys, clock });
  // A failed group commit could roll a revoke back under the cache, but after one writes stop and the process ends.
  const grants = createKeyGrantCache({ lookup: (hash) => apiKeys.grantByHash(hash), changedElsewhere: dataVersion(db) });

  const mustGetOrg = (orgId: string) => {
    const org = organizations.get(orgId);
    if (!org) throw new NotFound('Organization', orgId);
    return org;
  };

  const issueKey = (orgId: string, kind: KeyKind, bound: { store?: string | null; name?: string | null } = {}): CreatedKey => {
    const key = KEY_PREFIX[kind] + randomBytes(32).toString('base64url');
    const id = newId();
    const store = bound.store ?? null;
    apiKeys.insert({ id, orgId, kind, keyHash: hashKey(key), store, name: bound.name ?? null, createdAt: clock.now().toISOString() });
    return { id, kind, store, key };
  };

  const checkedStore = (orgId: string, kind: KeyKind, storeId: string | undefined): string | null => {
    if (storeId === undefined) {
      if (kind === 'kiosk') throw new BadRequest('store: a kiosk key sells for one store; give the id of that store');
      return null;
    }
    if (!STORE_BOUND_KINDS.includes(kind)) {
      throw new BadRequest(`store: only kiosk and scale keys are bound to a store; a ${kind} key reaches every store`);
    }
    const store = stores.get(orgId, storeId);
    if (!store) throw new BadRequest(`store: no store ${JSON.stringify(storeId)} in this organization`);
    if (store.deleted) throw new BadRequest(`store: store ${JSON.stringify(storeId)} is deleted`);
    return storeId;
  };

  const checkedName = (name: string | undefined): string | null => {
    if (name === undefined) return null;
    const trimmed = name.trim();
    if (trimmed === '') throw new BadRequest('name: must not be empty; leave it out for a key without a name');
    if (trimmed.length > MAX_KEY_NAME_LENGTH) throw new BadRequest(`name: must be at most ${MAX_KEY_NAME_LENGTH} characters`);
    return trimmed;
  };

  const keyOfOrg = (orgId: string, keyId: string): ApiKeyRow => {
    const key = apiKeys.get(keyId);
    if (!key || key.orgId !== orgId) throw new NotFound('Key', keyId);
    return key;
  };

  return {
    create(input: { name: string; features?: readonly string[] }): CreatedOrganization {
      const name = input.name.trim();
      if (name === '') throw new BadRequest('Organization name must not be empty');
      const features = parseFeatures(input.features ?? []);
      return immediateTransaction(db, () => {
        const id = newId();
        organizations.insert({ id, name, features, createdAt: clock.now().toISOString() });
        const read = issueKey(id, 'read');
        const write = issueKey(id, 'write');
        return { id, name, features, readKey: read.key, writeKey: write.key };
      });
    },

    list(): OrganizationSummary[] {
      return organizations.list().map(({ id, name, features }) => ({ id, name, features: features as Feature[] }));
    },

    count(): number {
      return organizations.count();
    },

    setFeatures(orgId: string, change: { enable?: readonly string[]; disable?: readonly string[] }) {
      const enable = parseFeatures(change.enable ?? []);
      const disable = parseFeatures(change.disable ?? []);
      const both = enable.filter((f) => disable.includes(f));
      if (both.length > 0) throw new BadRequest(`Feature ${both.join(', ')} is both enabled and disabled`);
      return immediateTransaction(db, () => {
        const org = mustGetOrg(orgId);
        const features = [...new Set([...org.features, ...enable])].filter((f) => !disable.includes(f as Feature)).sort();
        organizations.setFeatures(orgId, features);
        grants.forget();
        return { id: orgId, features: features as Feature[] };
      });
    },

    /** A new key of the organization; a kiosk key is bound to an existing store of it. */
    createKey(orgId: string, input: { kind: string; store?: string; name?: string }): CreatedKey {
      const { kind } = input;
      if (!isKeyKind(kind)) throw new BadRequest(`kind: must be one of ${KEY_KINDS.join(', ')}, not ${JSON.stringify(kind)}`);
      const name = checkedName(input.name);
      return immediateTransaction(db, () => {
        mustGetOrg(orgId);
        return issueKey(orgId, kind, { store: checkedStore(orgId, kind, input.store), name });
      });
    },

    listKeys(orgId: string): KeySummary[] {
      mustGetOrg(orgId);
      return apiKeys.listByOrg(orgId).map((key) => summaryOf({ ...key, lastUsedAt: usage.lastUsedAt(key.id, key.lastUsedAt) }));
    },

    /** The request's own key (any kind). */
    currentKey(keyId: string): CurrentKey {
      const key = apiKeys.get(keyId);
      if (!key) throw new NotFound('Key', keyId);
      return { id: key.id, kind: key.kind, store: key.store, name: key.name };
    },

    /** Revokes a key of the organization; the next request made with it is refused. */
    revokeOrgKey(orgId: string, keyId: string): { success: true } {
      keyOfOrg(orgId, keyId);
      apiKeys.revoke(keyId, clock.now().toISOString());
      grants.forget();
      return { success: true };
    },

    revokeKey(keyId: string): { success: true } {
      const key = apiKeys.get(keyId);
      if (!key) throw new NotFound('Key', keyId);
      apiKeys.revoke(keyId, clock.now().toISOString());
      grants.forget();
      return { success: true };
    },

    /** A request made for a key without the key itself (the staff page's sign-in): it counts for the key's `lastUsedAt`. */
    noteUse(keyId: string): void {
      usage.noteUse(keyId);
    },

    /** The grant of an active key, or undefined for an unknown or revoked one. */
    authenticate(key: string): KeyGrant | undefined {
      const hash = hashKey(key);
      // The index lookup already matched; compare once more in constant time so
      // no code path ever compares key material byte by byte.
      const grant = grants.grantOf(hash, (found) => timingSafeEqual(Buffer.from(found.keyHash, 'hex'), Buffer.from(hash, 'hex')));
      if (!grant) return undefined;
      usage.noteUse(grant.keyId);
      return grant;
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
