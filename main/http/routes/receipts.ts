import { Router } from 'express';
import { PrinterCheckRequestSchema, type NetworkPrinter, type PrinterStatus, ReceiptPrintRequestSchema } from '../../../shared/api/receipts.js';
import type { PrinterStates } from '../../receipts/printer-states.js';
import type { ReceiptPrinting } from '../../receipts/receipt-printing.js';
import { callerOf } from '../auth.js';
import { parseBody } from '../validation.js';

/**
 * `POST /receipts/{orderId}/print` (write key): the stored order's receipt to a
 * network receipt printer; `POST /printers/check`: its paper status, nothing printed.
 */
export function receiptRoutes(printing: ReceiptPrinting, check: (printer: NetworkPrinter) => Promise<PrinterStatus>): Router {
  const router = Router();
  router.post('/printers/check', async (req, res) => {
    const body = parseBody(PrinterCheckRequestSchema, req.body);
    res.json({ data: await check(body.printer) });
  });
  router.post('/receipts/:orderId/print', async (req, res) => {
    const body = parseBody(ReceiptPrintRequestSchema, req.body);
    res.json({ data: await printing.print(callerOf(res), req.params.orderId, body) });
  });
  return router;
}

/** `GET /printers` (no key, like `/health`): the receipt printers' states for the status page. */
export function printerStatusRoutes(states: PrinterStates): Router {
  const router = Router();
  router.get('/printers', (_req, res) => {
    res.json({ data: states.list() });
  });
  return router;
}
