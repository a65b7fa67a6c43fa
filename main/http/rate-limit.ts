import type { RequestHandler } from 'express';
import type { Clock } from '../services/clock.js';
import { TooManyRequests } from '../services/errors.js';
import { callerOf } from './auth.js';

export interface KeyRateLimit {
  /** Requests a key may make in one window. */
  limit: number;
  windowMs: number;
  /** What is counted, for the message, e.g. "identity verdicts". */
  what: string;
  clock: Clock;
}

/**
 * At most `limit` requests per key in each window, then 429 with `Retry-After`.
 * For answers that reveal something one guess at a time (is this person
 * blocked?), so that a key cannot try names and dates by the thousand.
 * Windows are counted in memory: a restart forgets them, which costs a prober
 * a restart per window.
 */
export function limitPerKey(options: KeyRateLimit): RequestHandler {
  const windows = new Map<string, { startsAt: number; count: number }>();
  return (_req, res, next) => {
    const caller = callerOf(res);
    const id = caller.keyId ?? `org:${caller.orgId}`;
    const now = options.clock.now().getTime();
    let window = windows.get(id);
    if (window === undefined || now - window.startsAt >= options.windowMs) {
      for (const [key, old] of windows) if (now - old.startsAt >= options.windowMs) windows.delete(key);
      window = { startsAt: now, count: 0 };
      windows.set(id, window);
    }
    window.count += 1;
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
