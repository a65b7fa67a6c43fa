import { Router } from 'express';
import { PrinterCreateSchema } from '../../../shared/api/printers.js';
import type { PrinterRegistry } from '../../receipts/printer-registry.js';
import { callerOf } from '../auth.js';
import { parseBody } from '../validation.js';

/**
 * The store's registered receipt printers: `POST /printers` and
 * `DELETE /printers/{id}` (write key), `GET /printers` (any key, the key's
 * organization only), `POST /printers/{id}/check` (paper status, nothing printed).
 */
export function printerRoutes(registry: PrinterRegistry): Router {
  const router = Router();
  router.post('/printers', async (req, res) => {
    const body = parseBody(PrinterCreateSchema, req.body);
    res.status(201).json({ success: true, id: await registry.register(callerOf(res), body) });
  });
  router.get('/printers', (_req, res) => {
    res.json({ data: registry.list(callerOf(res)) });
  });
  router.delete('/printers/:printerId', (req, res) => {
    registry.remove(callerOf(res), req.params.printerId);
    res.json({ success: true });
  });
  router.post('/printers/:printerId/check', async (req, res) => {
    res.json({ data: await registry.check(callerOf(res), req.params.printerId) });
  });
  return router;
}
