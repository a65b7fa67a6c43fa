import { Router } from 'express';
import { DailyReportPrintRequestSchema, DailyReportQuerySchema } from '../../../shared/api/reports.js';
import type { CardDay } from '../../payments/card-day.js';
import type { ReportPrinting } from '../../receipts/report-printing.js';
import type { ReportService } from '../../services/reports.js';
import { callerOf } from '../auth.js';
import { parseBodyFields, parseQuery } from '../validation.js';

/** `GET /reports/daily` (read key): a store's day closing; `POST /reports/daily/print` (write key): the same on a receipt printer. */
export function reportRoutes(reports: ReportService, printing: ReportPrinting, cardDay: CardDay): Router {
  const router = Router();
  router.get('/reports/daily', async (req, res) => {
    const query = parseQuery(DailyReportQuerySchema, req.query);
    const caller = callerOf(res);
    const report = reports.daily(caller, query);
    res.json({ data: { ...report, card: await cardDay.reconcile(caller, report) } });
  });
  router.post('/reports/daily/print', async (req, res) => {
    const body = parseBodyFields(DailyReportPrintRequestSchema, req.body);
    res.json({ data: await printing.print(callerOf(res), body) });
  });
  return router;
}
