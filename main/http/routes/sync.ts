import { Router, type RequestHandler } from 'express';
import type { SyncAdmin } from '../../sync/sync-admin.js';
import type { SyncWorker } from '../../sync/worker.js';
import { callerOf } from '../auth.js';

/** `GET /sync` and `GET /sync/parked` (read key): where reconciliation with the upstream stands. */
export function syncRoutes(admin: SyncAdmin): Router {
  const router = Router();
  router.get('/sync', (_req, res) => {
    res.json({ data: admin.status(callerOf(res).orgId) });
  });
  router.get('/sync/parked', (_req, res) => {
    res.json({ data: admin.parked(callerOf(res).orgId) });
  });
  return router;
}

/** After each successful write, asks the worker for a push soon (never a pull). */
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
