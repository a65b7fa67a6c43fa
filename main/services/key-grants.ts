import type { KeyGrant } from '../storage/api-keys.js';

/** Above this many active keys in use, the cache starts over rather than grow without bound. */
const MOST_CACHED = 4096;

/**
 * Active keys' grants by key hash, so a request costs one hash and one map
 * lookup instead of a join and a JSON parse. Valid only while the epoch holds:
 * `forget()` (this process revoked a key or changed features) or a commit by
 * another process (`changedElsewhere` moved, e.g. `key revoke` on the CLI)
 * empties it, so a revoked key is refused at the very next request. Unknown
 * and revoked keys are never cached: they always reach the database.
 */
export function createKeyGrantCache(deps: { lookup: (hash: string) => KeyGrant | undefined; changedElsewhere: () => number }) {
  const grants = new Map<string, KeyGrant>();
  let seenVersion = deps.changedElsewhere();

  return {
    /** The grant of an active key; `verify` runs only for a grant read from the database. */
    grantOf(hash: string, verify: (grant: KeyGrant) => boolean): KeyGrant | undefined {
      const version = deps.changedElsewhere();
      if (version !== seenVersion) {
        grants.clear();
        seenVersion = version;
      }
      const cached = grants.get(hash);
      if (cached) return cached;
      const grant = deps.lookup(hash);
      if (!grant?.active || !verify(grant)) return undefined;
      if (grants.size >= MOST_CACHED) grants.clear();
      grants.set(hash, grant);
      return grant;
    },

    forget(): void {
      grants.clear();
    },
  };
}
