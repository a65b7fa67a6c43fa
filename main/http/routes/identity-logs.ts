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
import { callerOf } from '../auth.js';
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

export function identityLogRoutes(identityLogs: IdentityLogService): Router {
  const router = Router();

  router.get('/identity-logs', (req, res) => {
    const query = parseQuery(IdentityLogListQuerySchema, req.query);
    res.json(identityLogs.list(callerOf(res), query));
  });

  router.post('/identity-logs', (req, res) => {
    const body = parseBody(IdentityLogCreateSchema, req.body);
    res.json({ success: true, id: identityLogs.record(callerOf(res), body) });
  });

  router.post('/identity-logs/verdict', (req, res) => {
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
