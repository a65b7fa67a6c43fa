import { Router } from 'express';
import { PayoutAccountSchema, SettlementCreateSchema, StatementQuerySchema } from '../../../shared/api/settlements.js';
import type { Settlements } from '../../settlements/index.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

/** The organization's payout account, its settlements, their payout files and statements. */
export function settlementRoutes(settlements: Settlements): Router {
  const { service, payoutFiles, statements, mails } = settlements;
  const router = Router();

  router.post('/payout-account', (req, res) => {
    service.putPayoutAccount(callerOf(res), parseBody(PayoutAccountSchema, req.body));
    res.json({ success: true });
  });
  router.get('/payout-account', (_req, res) => {
    res.json({ data: service.payoutAccount(callerOf(res)) });
  });

  router.post('/settlements', async (req, res) => {
    res.status(201).json({ success: true, id: await service.create(callerOf(res), parseBody(SettlementCreateSchema, req.body)) });
  });
  router.get('/settlements', (_req, res) => {
    res.json({ data: service.list(callerOf(res)) });
  });
  router.get('/settlements/:settlementId', (req, res) => {
    res.json({ data: service.get(callerOf(res), req.params.settlementId) });
  });
  router.get('/settlements/:settlementId/payout-file', (req, res) => {
    const settlement = service.get(callerOf(res), req.params.settlementId);
    const file = payoutFiles.payoutFileOf(callerOf(res), settlement.id);
    res.type('application/xml; charset=utf-8').set('Content-Disposition', `attachment; filename="payouts-${settlement.number}.xml"`).send(file);
  });
  router.get('/settlements/:settlementId/statements/:supplierId', async (req, res) => {
    const { format } = parseQuery(StatementQuerySchema, req.query);
    const { settlementId, supplierId } = req.params;
    const name = `statement-${service.get(callerOf(res), settlementId).number}-${supplierId}`;
    if (format === 'csv') {
      res.type('text/csv; charset=utf-8').set('Content-Disposition', `attachment; filename="${name}.csv"`).send(statements.csv(callerOf(res), settlementId, supplierId));
      return;
    }
    const pdf = await statements.pdf(callerOf(res), settlementId, supplierId);
    res.type('application/pdf').set('Content-Disposition', `attachment; filename="${name}.pdf"`).send(pdf);
  });
  router.post('/settlements/:settlementId/send', async (req, res) => {
    res.json({ data: await mails.send(callerOf(res), req.params.settlementId) });
  });
  return router;
}
