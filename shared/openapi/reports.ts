import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { dataOf } from '../api/common.js';
import { DailyReportQuerySchema, DailyReportSchema } from '../api/reports.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerReportPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/reports/daily',
    ...EXTENSION,
    summary: "A store's takings of one local day (day closing)",
    description:
      "The day is the store's local day in its `timeZone` (default Europe/Zurich): 23 or 25 hours on the days the clocks change. " +
      'Counted are orders in payment state `successful` that are not deleted; every total is a sum of what the orders stored, so they add up to the orders to the cent. ' +
      'An unknown store or a date that is not a calendar day is a 400 in the validation shape.',
    request: { query: DailyReportQuerySchema },
    responses: { 200: json(dataOf(DailyReportSchema), 'The report.'), ...errors([400, 403], { validation: true }) },
  });
}
