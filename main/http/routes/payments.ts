import { Router } from 'express';
import { PaymentCreateSchema, PaymentListQuerySchema, PaymentRefundSchema } from '../../../shared/api/payments.js';
import type { PaymentService } from '../../payments/payment-service.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

/** Card payments at the store's terminal; 202: the terminal decides later, `GET /payments/{id}` follows it. */
export function paymentRoutes(payments: PaymentService): Router {
  const router = Router();
  router.post('/payments', async (req, res) => {
    res.status(202).json({ data: await payments.start(callerOf(res), parseBody(PaymentCreateSchema, req.body)) });
  });
  router.get('/payments', (req, res) => {
    res.json({ data: payments.list(callerOf(res), parseQuery(PaymentListQuerySchema, req.query)) });
  });
  router.get('/payments/:paymentId', (req, res) => {
    res.json({ data: payments.get(callerOf(res), req.params.paymentId) });
  });
  router.post('/payments/:paymentId/cancel', async (req, res) => {
    res.status(202).json({ data: await payments.cancel(callerOf(res), req.params.paymentId) });
  });
  router.post('/payments/:paymentId/refund', async (req, res) => {
    res.status(202).json({ data: await payments.refund(callerOf(res), req.params.paymentId, parseBody(PaymentRefundSchema, req.body ?? {})) });
  });
  router.post('/terminals/:terminalId/check', async (req, res) => {
    res.json({ data: await payments.checkTerminal(callerOf(res), req.params.terminalId) });
  });
  router.get('/terminals/:terminalId/totals', async (req, res) => {
    res.json({ data: await payments.terminalTotals(callerOf(res), req.params.terminalId) });
  });
  return router;
}
