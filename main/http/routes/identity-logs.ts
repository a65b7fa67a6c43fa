import { Router, type RequestHandler } from 'express';
import {
  BlockedIdentityCreateSchema,
  BlockedIdentityListQuerySchema,
  BlockedIdentityUpdateSchema,
  IdentityLogCreateSchema,
  IdentityLogListQuerySchema,
  IdentityVerdictRequestSchema,
} from '../../../shared/api/identity-logs.js';
import { requireFeature } from '../../services/caller.js';
import { IDENTITY_LOGS, type IdentityLogService } from '../../services/identity-logs.js';
import type { Clock } from '../../services/clock.js';
import type { RateWindowStore } from '../../storage/rate-windows.js';
import { callerOf } from '../auth.js';
import { limitPerKey } from '../rate-limit.js';
import { parseBody, parseQuery } from '../validation.js';

/**
 * Answers 403 `Feature not available` for every identity-log path of an
 * organization without the feature. Mounted before the body parser, so not
 * even a malformed body is looked at first.
 */
export const identityLogFeatureGate: RequestHandler = (_req, res, next) => {
  requireFeature(callerOf(res), IDENTITY_LOGS);
  next();
};

/** Verdicts one key may ask for in a minute: a kiosk checks one document at a time, a prober needs thousands. */
export const VERDICTS_PER_MINUTE = 30;

export function identityLogRoutes(identityLogs: IdentityLogService, clock: Clock, windows: RateWindowStore): Router {
  const router = Router();
  const verdictLimit = limitPerKey({ limit: VERDICTS_PER_MINUTE, windowMs: 60_000, what: 'identity verdicts', clock, windows });

  router.get('/identity-logs', (req, res) => {
    const query = parseQuery(IdentityLogListQuerySchema, req.query);
    res.json(identityLogs.list(callerOf(res), query));
  });

  router.post('/identity-logs', (req, res) => {
    const body = parseBody(IdentityLogCreateSchema, req.body);
    res.json({ success: true, id: identityLogs.record(callerOf(res), body) });
  });

  router.post('/identity-logs/verdict', verdictLimit, (req, res) => {
    const body = parseBody(IdentityVerdictRequestSchema, req.body);
    res.json({ data: identityLogs.verdict(callerOf(res), body) });
  });

  router.get('/identity-logs/blocked', (req, res) => {
    const query = parseQuery(BlockedIdentityListQuerySchema, req.query);
    res.json(identityLogs.listBlocked(callerOf(res), query));
  });

  router.post('/identity-logs/blocked', (req, res) => {
    const body = parseBody(BlockedIdentityCreateSchema, req.body);
    res.json({ success: true, id: identityLogs.block(callerOf(res), body) });
  });

  router.get('/identity-logs/blocked/:blockedId', (req, res) => {
    res.json({ data: identityLogs.getBlocked(callerOf(res), req.params.blockedId) });
  });

  router.post('/identity-logs/blocked/:blockedId', (req, res) => {
    const body = parseBody(BlockedIdentityUpdateSchema, req.body);
    identityLogs.updateBlocked(callerOf(res), req.params.blockedId, body);
    res.json({ success: true });
  });

  router.delete('/identity-logs/blocked/:blockedId', (req, res) => {
    identityLogs.unblock(callerOf(res), req.params.blockedId);
    res.json({ success: true });
  });

  return router;
}
