import type { Db } from './database.js';

/** Per organization, how far back its change feeds are complete (see migration 26; the purges raise it). */
export function createFeedHorizonStore(db: Db) {
  const read = db.prepare<[string], string>('SELECT purged_through FROM feed_horizons WHERE org_id = ?').pluck();
  return {
    /** The newest deletion time a purge removed, or undefined when none was ever purged. */
    purgedThrough(orgId: string): string | undefined {
      return read.get(orgId);
    },
  };
}

export type FeedHorizonStore = ReturnType<typeof createFeedHorizonStore>;
