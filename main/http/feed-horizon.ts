import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Gone } from '../services/errors.js';

const DAY_MS = 86_400_000;
/** The start of every change feed: a walk from here reads every record still kept. */
const ORIGIN = 0;

/**
 * Soft-deleted records are purged `days` after their deletion, and with them
 * their place in the change feeds. A feed read from a time before that
 * horizon could miss a deletion, so it answers 410 and the reader reads
 * everything again: from the origin (`1970-01-01T00:00:00.000Z`, or earlier),
 * which lists every record still kept, or the whole list. A query the route
 * would refuse anyway is left to it.
 */
export function feedHorizon(clock: { now(): Date }, days: number): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const since = req.method === 'GET' ? req.query.updatedSince : undefined;
    if (typeof since !== 'string') return next();
    const time = Date.parse(since);
    const horizon = clock.now().getTime() - days * DAY_MS;
    if (Number.isNaN(time) || time <= ORIGIN || time >= horizon) return next();
    throw new Gone(
      `updatedSince ${since} is before ${new Date(horizon).toISOString()}: deletions older than ${days} days are no longer kept; ` +
        'read everything again, with updatedSince=1970-01-01T00:00:00.000Z or without updatedSince',
    );
  };
}
