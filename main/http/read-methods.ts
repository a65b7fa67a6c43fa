import type { RequestHandler } from 'express';
import { inOrder } from './in-order.js';

/** Methods that only read: a read key may use them, and they carry no body to parse or keep. */
export const READ_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/**
 * Runs the given steps (body parsing, `Idempotency-Key`, sync scheduling) for
 * writes only; a read passes by them in one check, which matters on the
 * lookups a kiosk and its scales make most. The steps are chained by hand, not
 * by a Router: a Router hands over to the next handler a tick later, and
 * `Idempotency-Key` relies on the route running inside its commit.
 */
export function forWritesOnly(...steps: RequestHandler[]): RequestHandler {
  const writeSteps = inOrder(...steps);
  return (req, res, next) => (READ_METHODS.has(req.method) ? next() : writeSteps(req, res, next));
}
