import { Router } from 'express';
import { TerminalCreateSchema } from '../../../shared/api/terminals.js';
import type { TerminalRegistry } from '../../payments/terminal-registry.js';
import { callerOf } from '../auth.js';
import { parseBody } from '../validation.js';

/** The store's card terminals: `POST /terminals` and `DELETE /terminals/{id}` (write key), `GET /terminals` (a kiosk key sees its store's). */
export function terminalRoutes(registry: TerminalRegistry): Router {
  const router = Router();
  router.post('/terminals', async (req, res) => {
    res.status(201).json({ success: true, id: await registry.register(callerOf(res), parseBody(TerminalCreateSchema, req.body)) });
  });
  router.get('/terminals', (_req, res) => {
    res.json({ data: registry.list(callerOf(res)) });
  });
  router.delete('/terminals/:terminalId', (req, res) => {
    registry.remove(callerOf(res), req.params.terminalId);
    res.json({ success: true });
  });
  return router;
}
