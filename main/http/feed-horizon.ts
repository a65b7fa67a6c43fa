import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Gone } from '../services/errors.js';
import type { FeedHorizonStore } from '../storage/feed-horizons.js';
import { callerOf } from './auth.js';

/** The collections with a change feed (`updatedSince`): the soft-deletable ones, whose purges make the horizon. */
const FEEDS: ReadonlySet<string> = new Set(['/products', '/categories', '/suppliers', '/stores', '/identity-logs/blocked']);
/** The start of every change feed: a walk from here reads every record still kept. */
const ORIGIN = 0;

/**
 * Soft-deleted records are purged some days after their deletion, and with
 * them their place in the change feeds. A feed read from a time before the
 * newest deletion a purge removed (the organization's horizon) could miss
 * it, so it answers 410 and the reader reads everything again: from the
 * origin (`1970-01-01T00:00:00.000Z`, or earlier), which lists every record
 * still kept, or the whole list. An organization that never had anything
 * purged answers every `updatedSince`. A query the route would refuse anyway
 * is left to it.
 */
export function feedHorizon(horizons: FeedHorizonStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' && FEEDS.has(req.path)) refuseBeyondHorizon(horizons, callerOf(res).orgId, req.path, req.query.updatedSince);
    next();
  };
}

/** Throws `Gone` (410) for a change-feed read of `path` from before the organization's horizon. */
export function refuseBeyondHorizon(horizons: FeedHorizonStore, orgId: string, path: string, since: unknown): void {
  if (typeof since !== 'string' || !FEEDS.has(path)) return;
  const time = Date.parse(since);
  if (Number.isNaN(time) || time <= ORIGIN) return;
  const purgedThrough = horizons.purgedThrough(orgId);
  if (purgedThrough === undefined || time >= Date.parse(purgedThrough)) return;
  throw new Gone(
    `updatedSince ${since} is before ${purgedThrough}: deletions up to then were purged and are no longer in the change feed; ` +
      'read everything again, with updatedSince=1970-01-01T00:00:00.000Z or without updatedSince',
  );
}
