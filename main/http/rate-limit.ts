import type { RequestHandler } from 'express';
import type { Clock } from '../services/clock.js';
import { TooManyRequests } from '../services/errors.js';
import type { RateWindowStore } from '../storage/rate-windows.js';
import { callerOf } from './auth.js';

export interface KeyRateLimit {
  /** Requests a key may make in one window. */
  limit: number;
  windowMs: number;
  /** What is counted, for the message, e.g. "identity verdicts". */
  what: string;
  clock: Clock;
  windows: RateWindowStore;
}

/**
 * At most `limit` requests per key in each window, then 429 with `Retry-After`.
 * For answers that reveal something one guess at a time (is this person
 * blocked?), so that a key cannot try names and dates by the thousand.
 * Windows are kept in the database: a restart does not open a new one.
 */
export function limitPerKey(options: KeyRateLimit): RequestHandler {
  return (_req, res, next) => {
    const caller = callerOf(res);
    const now = options.clock.now().getTime();
    const window = options.windows.count(caller.keyId ?? `org:${caller.orgId}`, options.what, now, options.windowMs);
    if (window.count > options.limit) {
      const retryAfter = Math.max(1, Math.ceil((window.startsAt + options.windowMs - now) / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new TooManyRequests(
        `This key asked for ${options.limit} ${options.what} within ${options.windowMs / 1000} s, the most allowed: try again in ${retryAfter} s`,
      );
    }
    next();
  };
}
