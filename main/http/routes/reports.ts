import { Router } from 'express';
import { DailyReportQuerySchema } from '../../../shared/api/reports.js';
import type { ReportService } from '../../services/reports.js';
import { callerOf } from '../auth.js';
import { parseQuery } from '../validation.js';

/** `GET /reports/daily` (read key): a store's day closing. */
export function reportRoutes(reports: ReportService): Router {
  const router = Router();
  router.get('/reports/daily', (req, res) => {
    const query = parseQuery(DailyReportQuerySchema, req.query);
    res.json({ data: reports.daily(callerOf(res), query) });
  });
  return router;
}
