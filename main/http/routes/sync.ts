import { Router, type RequestHandler } from 'express';
import type { SyncAdmin } from '../../sync/sync-admin.js';
import type { SyncWorker } from '../../sync/worker.js';
import { BadRequest, NotFound } from '../../services/errors.js';
import { callerOf } from '../auth.js';

const entryIdOf = (value: string): string => {
  if (!/^\d+$/.test(value)) throw new BadRequest(`entryId: must be a whole number as GET /sync/parked lists it, not ${JSON.stringify(value)}`);
  return value;
};

/**
 * `GET /sync` and `GET /sync/parked` (read key): where reconciliation with the
 * upstream stands. `POST /sync/parked/{entryId}/retry|discard` (write key): what
 * `sync retry` and `sync discard` do, for the staff page.
 */
export function syncRoutes(admin: SyncAdmin): Router {
  const router = Router();
  router.get('/sync', (_req, res) => {
    res.json({ data: admin.status(callerOf(res).orgId) });
  });
  router.get('/sync/parked', (_req, res) => {
    res.json({ data: admin.parked(callerOf(res).orgId) });
  });
  router.post('/sync/parked/:entryId/retry', (req, res) => {
    const result = admin.retry(callerOf(res).orgId, entryIdOf(req.params.entryId));
    if (result.retried === 0) throw new NotFound('Parked entry', req.params.entryId);
    res.json({ data: result });
  });
  router.post('/sync/parked/:entryId/discard', (req, res) => {
    const orgId = callerOf(res).orgId;
    const entryId = entryIdOf(req.params.entryId);
    if (!admin.parked(orgId).some((entry) => String(entry.id) === entryId)) throw new NotFound('Parked entry', entryId);
    res.json({ data: admin.discard(orgId, entryId) });
  });
  return router;
}

/** After each successful write, asks the worker for a round soon. */
export function scheduleSyncAfterWrites(worker: SyncWorker): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.on('finish', () => {
        if (res.statusCode < 400) worker.schedule(callerOf(res).orgId);
      });
    }
    next();
  };
}
