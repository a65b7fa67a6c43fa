import { Router, type RequestHandler } from 'express';
import { FleetQuerySchema, HeartbeatSchema } from '../../../shared/api/fleet.js';
import type { Fleet } from '../../fleet/fleet.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

/**
 * `POST /fleet/heartbeat` (write key): a store PC's state after its sync
 * rounds. `GET /fleet` (read key): every store PC of the organization with a
 * computed state. `DELETE /fleet/{device}` (write key): forget a PC.
 */
export function fleetRoutes(fleet: Fleet): Router {
  const router = Router();
  router.post('/fleet/heartbeat', takeHeartbeat(fleet));
  router.get('/fleet', (req, res) => {
    const query = parseQuery(FleetQuerySchema, req.query);
    const thresholds = {
      ...(query.behindSeconds !== undefined ? { behindMs: query.behindSeconds * 1000 } : {}),
      ...(query.offlineSeconds !== undefined ? { offlineMs: query.offlineSeconds * 1000 } : {}),
    };
    res.json({ data: fleet.list(callerOf(res).orgId, thresholds) });
  });
  router.delete('/fleet/:device', (req, res) => {
    fleet.remove(callerOf(res).orgId, req.params.device);
    res.json({ success: true });
  });
  return router;
}

/** `POST /fleet/heartbeat`; also run by the hot writes (http/hot-writes.ts) for a request that takes their lane. */
export function takeHeartbeat(fleet: Fleet): RequestHandler {
  return (req, res) => {
    fleet.record(callerOf(res).orgId, parseBody(HeartbeatSchema, req.body));
    res.json({ success: true });
  };
}
