import { Router } from 'express';
import { ReceiptPrintRequestSchema } from '../../../shared/api/receipts.js';
import type { ReceiptPrinting } from '../../receipts/receipt-printing.js';
import { callerOf } from '../auth.js';
import { parseBody } from '../validation.js';

/** `POST /receipts/{orderId}/print` (write key): the stored order's receipt to a registered network receipt printer. */
export function receiptRoutes(printing: ReceiptPrinting): Router {
  const router = Router();
  router.post('/receipts/:orderId/print', async (req, res) => {
    const body = parseBody(ReceiptPrintRequestSchema, req.body);
    res.json({ data: await printing.print(callerOf(res), req.params.orderId, body) });
  });
  return router;
}
