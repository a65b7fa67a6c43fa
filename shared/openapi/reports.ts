import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { dataOf } from '../api/common.js';
import { ReceiptPrintResultSchema } from '../api/receipts.js';
import { DailyReportPrintRequestSchema, DailyReportQuerySchema, DailyReportSchema } from '../api/reports.js';
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
  registry.registerPath({
    method: 'post',
    path: '/reports/daily/print',
    ...EXTENSION,
    summary: "Print a store's day's report on a network receipt printer (Write key)",
    description:
      'Builds the report of `GET /reports/daily` for the store and day (store name, date and time zone, sales, total, per payment method and brand, VAT per rate, deposits, discounts, ' +
      'orders not counted, first and last sale) and sends it as ESC/POS commands over TCP, as `POST /receipts/{orderId}/print` does with a receipt: paper status first, nothing sent at the paper end. ' +
      'A printer fault is an answer, not an error: `printed` is false and `state` and `message` say why; `GET /printers` lists the printer with its state afterwards. ' +
      'A missing or wrong field, an unknown store, a date that is not a calendar day or a printer id that is not registered is a 400 in the validation shape.',
    request: { body: { content: { 'application/json': { schema: DailyReportPrintRequestSchema } } } },
    responses: { 200: json(dataOf(ReceiptPrintResultSchema), 'Whether the printer took the report.'), ...errors([400, 403], { validation: true }) },
  });
}
