import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { dataOf } from '../api/common.js';
import { PrinterCheckRequestSchema, PrinterStatusSchema, ReceiptPrintRequestSchema, ReceiptPrintResultSchema } from '../api/receipts.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ orderId: z.string().describe('Order id (the `id` field, not `orderId`).') });

export function registerReceiptPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/receipts/{orderId}/print',
    ...EXTENSION,
    summary: "Print the order's receipt on a network receipt printer (Write key)",
    description:
      'Builds the receipt from the stored order and its store (name, address, VAT number, date and time in the store\'s `timeZone`, lines, VAT per rate, total, payment) and sends it ' +
      'as ESC/POS commands over TCP. The server asks the printer for its paper status first and sends nothing when it reports its paper end. ' +
      'A printer fault is an answer, not an error: `printed` is false and `state` and `message` say why; `GET /printers` shows the last state of each printer.',
    request: { params, body: { content: { 'application/json': { schema: ReceiptPrintRequestSchema } } } },
    responses: { 200: json(dataOf(ReceiptPrintResultSchema), 'Whether the printer took the receipt.'), ...errors([400, 403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/printers/check',
    ...EXTENSION,
    summary: 'Ask a network receipt printer for its paper status, printing nothing (Write key)',
    description:
      'The kiosk calls it at start with its printer, so `GET /printers` (and the staff page) list the printer and its state before the first sale. ' +
      'A printer fault is an answer, not an error: `state` and `message` say why.',
    request: { body: { content: { 'application/json': { schema: PrinterCheckRequestSchema } } } },
    responses: { 200: json(dataOf(PrinterStatusSchema), 'The printer as the check found it.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/printers',
    ...EXTENSION,
    summary: 'Receipt printers and their last state (no key needed)',
    description: 'Every printer the server sent a receipt or a day\'s report to, or checked for a kiosk, since it started, faults first. For the status page.',
    security: [],
    responses: { 200: json(z.object({ data: z.array(PrinterStatusSchema) }), 'The printers.') },
  });
}
