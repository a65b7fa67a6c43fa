import express, { Router } from 'express';
import { KeyCreateSchema } from '../../../shared/api/keys.js';
import type { OrganizationService } from '../../services/organizations.js';
import { callerOf } from '../auth.js';
import { parseBody } from '../validation.js';

/**
 * `/keys` (write key): staff make, list and revoke the organization's keys,
 * e.g. one per kiosk; `GET /keys/current` (any key) tells a device what its
 * key is. Mounted before the `Idempotency-Key` step: a created key's answer
 * holds the secret, which is never stored, so that header is not honoured here.
 */
export function keyRoutes(organizations: OrganizationService, jsonLimit: string): Router {
  const router = Router();

  router.get('/keys/current', (_req, res) => {
    res.json({ data: organizations.currentKey(callerOf(res).keyId ?? '') });
  });

  router.get('/keys', (_req, res) => {
    res.json({ data: organizations.listKeys(callerOf(res).orgId) });
  });

  router.post('/keys', express.json({ limit: jsonLimit }), (req, res) => {
    const body = parseBody(KeyCreateSchema, req.body);
    const created = organizations.createKey(callerOf(res).orgId, body);
    res.status(201).json({ success: true, id: created.id, key: created.key });
  });

  router.delete('/keys/:keyId', (req, res) => {
    res.json(organizations.revokeOrgKey(callerOf(res).orgId, req.params.keyId));
  });

  return router;
}
