import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { FEATURES, isFeature, type Feature } from '../../shared/features.js';
import { newId } from '../rules/ids.js';
import type { ApiKeyRow, ApiKeyStore, KeyGrant, KeyKind } from '../storage/api-keys.js';
import type { Db } from '../storage/database.js';
import type { OrganizationStore } from '../storage/organizations.js';
import type { Clock } from './clock.js';
import { BadRequest, NotFound } from './errors.js';

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
  key: string;
}

const KEY_PREFIX: Record<KeyKind, string> = { read: 'rk_', write: 'wk_' };

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
  clock: Clock;
}) {
  const { db, organizations, apiKeys, clock } = deps;

  const mustGetOrg = (orgId: string) => {
    const org = organizations.get(orgId);
    if (!org) throw new NotFound('Organization', orgId);
    return org;
  };

  const issueKey = (orgId: string, kind: KeyKind): CreatedKey => {
    const key = KEY_PREFIX[kind] + randomBytes(32).toString('base64url');
    const id = newId();
    apiKeys.insert({ id, orgId, kind, keyHash: hashKey(key), createdAt: clock.now().toISOString() });
    return { id, kind, key };
  };

  return {
    create(input: { name: string; features?: readonly string[] }): CreatedOrganization {
      const name = input.name.trim();
      if (name === '') throw new BadRequest('Organization name must not be empty');
      const features = parseFeatures(input.features ?? []);
      return db.transaction(() => {
        const id = newId();
        organizations.insert({ id, name, features, createdAt: clock.now().toISOString() });
        const read = issueKey(id, 'read');
        const write = issueKey(id, 'write');
        return { id, name, features, readKey: read.key, writeKey: write.key };
      })();
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
      return db.transaction(() => {
        const org = mustGetOrg(orgId);
        const features = [...new Set([...org.features, ...enable])].filter((f) => !disable.includes(f as Feature)).sort();
        organizations.setFeatures(orgId, features);
        return { id: orgId, features: features as Feature[] };
      })();
    },

    createKey(orgId: string, kind: string): CreatedKey {
      if (kind !== 'read' && kind !== 'write') throw new BadRequest(`Key kind must be "read" or "write", not ${JSON.stringify(kind)}`);
      return db.transaction(() => {
        mustGetOrg(orgId);
        return issueKey(orgId, kind);
      })();
    },

    listKeys(orgId: string): Omit<ApiKeyRow, 'orgId'>[] {
      mustGetOrg(orgId);
      return apiKeys.listByOrg(orgId).map(({ id, kind, active, createdAt }) => ({ id, kind, active, createdAt }));
    },

    revokeKey(keyId: string): { success: true } {
      const key = apiKeys.get(keyId);
      if (!key) throw new NotFound('Key', keyId);
      apiKeys.revoke(keyId, clock.now().toISOString());
      return { success: true };
    },

    /** The grant of an active key, or undefined for an unknown or revoked one. */
    authenticate(key: string): KeyGrant | undefined {
      const hash = hashKey(key);
      const grant = apiKeys.grantByHash(hash);
      if (!grant || !grant.active) return undefined;
      // The index lookup already matched; compare once more in constant time so
      // no code path ever compares key material byte by byte.
      if (!timingSafeEqual(Buffer.from(grant.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return undefined;
      return grant;
    },
  };
}

export type OrganizationService = ReturnType<typeof createOrganizationService>;
