import type { Clock } from '../services/clock.js';
import type { SyncConfigStore } from './config-store.js';

/** How long a round's lease lasts without renewal; a round renews it every third of that. */
export const LEASE_MS = 10 * 60_000;

export interface HeldLease {
  /** False once the lease was lost (the database refused a renewal): the round must stop. */
  held(): boolean;
  release(): void;
}

/**
 * Takes an organization's round lease and renews it while the round runs, so
 * a round longer than the lease (a week-old queue, a big pull, a large image
 * on a slow line) is never run a second time at once by another process.
 * Undefined when another round holds it.
 */
export function holdLease(configs: SyncConfigStore, clock: Clock, orgId: string, owner: string, ttlMs = LEASE_MS): HeldLease | undefined {
  if (!configs.acquireLease(orgId, owner, clock.now(), ttlMs)) return undefined;
  let held = true;
  const renew = setInterval(() => {
    held = configs.renewLease(orgId, owner, clock.now(), ttlMs);
    if (!held) clearInterval(renew);
  }, Math.max(1, Math.floor(ttlMs / 3)));
  renew.unref();
  return {
    held: () => held,
    release() {
      clearInterval(renew);
      configs.releaseLease(orgId, owner);
    },
  };
}
