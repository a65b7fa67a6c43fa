import type { ApiKeyStore } from '../storage/api-keys.js';
import type { Clock } from './clock.js';

/** How often at most a key's `lastUsedAt` is written to the database. */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;

/**
 * When each key was last used, without a database write per request: the
 * time is kept in memory and written at most once a minute per key, so the
 * stored `last_used_at` is accurate to a minute (the running server answers
 * the exact time; a stop may lose the last minute).
 */
export function createKeyUsage(deps: { apiKeys: ApiKeyStore; clock: Clock }) {
  const { apiKeys, clock } = deps;
  // Times in ms: turning each request's time into ISO text cost more than the key lookup itself.
  const seen = new Map<string, { atMs: number; writtenMs: number }>();

  return {
    noteUse(keyId: string): void {
      const nowMs = clock.now().getTime();
      const entry = seen.get(keyId);
      if (entry && nowMs - entry.writtenMs < KEY_USE_WRITE_INTERVAL_MS) {
        entry.atMs = nowMs;
        return;
      }
      seen.set(keyId, { atMs: nowMs, writtenMs: nowMs });
      try {
        apiKeys.recordUse(keyId, new Date(nowMs).toISOString());
      } catch {
        // A busy or full disk must not refuse the request the key was used for;
        // the time stays in memory and is written with a later use.
      }
    },

    /** The latest use known: this process's, else the stored one. */
    lastUsedAt(keyId: string, stored: string | null): string | null {
      const atMs = seen.get(keyId)?.atMs;
      return atMs === undefined ? stored : new Date(atMs).toISOString();
    },
  };
}

export type KeyUsage = ReturnType<typeof createKeyUsage>;
