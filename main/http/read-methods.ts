import type { RequestHandler } from 'express';
import { Router } from 'express';

/** Methods that only read: a read key may use them, and they carry no body to parse or keep. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Runs the given steps (body parsing, `Idempotency-Key`, sync scheduling) for
 * writes only; a read passes by them in one check, which matters on the
 * lookups a kiosk and its scales make most.
 */
export function forWritesOnly(...steps: RequestHandler[]): RequestHandler {
  const writes = Router();
  writes.use(...steps);
  return (req, res, next) => {
    if (READ_METHODS.has(req.method)) next();
    else writes(req, res, next);
  };
}
