import { Router } from 'express';
import type { AlertWatch } from '../../alerts/alert-watch.js';
import { callerOf } from '../auth.js';

/** `GET /alerts` (write key): open alerts first, then the recent ones. */
export function alertRoutes(alerts: AlertWatch): Router {
  const router = Router();
  router.get('/alerts', (_req, res) => {
    const data = alerts.list(callerOf(res).orgId).map((a) => ({ id: a.id, store: a.store, kind: a.kind, since: a.since, endedAt: a.endedAt }));
    res.json({ data });
  });
  return router;
}
