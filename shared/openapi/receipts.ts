import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf } from '../api/common.js';
import { PrinterCreateSchema, PrinterStatusSchema } from '../api/printers.js';
import { ReceiptPrintRequestSchema, ReceiptPrintResultSchema } from '../api/receipts.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ orderId: z.string().describe('Order id (the `id` field, not `orderId`).') });
const printerParams = z.object({ printerId: z.string().describe('Printer id (`GET /printers`).') });

const ADDRESS_RULES =
  'The server connects only to registered printers, on a private LAN address (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, IPv6 fc00::/7) and a printer port (9100-9102); ' +
  'loopback, link-local, multicast and public addresses and other ports are refused with 400 naming the rule, before any connection, unless the settings `PRINTER_ALLOW_ADDRESSES` and `PRINTER_PORTS` allow them. ' +
  'A host name is resolved once per connection and the server connects to exactly the address it checked.';

export function registerReceiptPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/receipts/{orderId}/print',
    ...EXTENSION,
    summary: "Print the order's receipt on a registered network receipt printer (Write key)",
    description:
      'Builds the receipt from the stored order and its store (name, address, VAT number, date and time in the store\'s `timeZone`, lines, VAT per rate, total, payment) and sends it ' +
      'as ESC/POS commands over TCP to the printer `printer` names. The server asks the printer for its paper status first and sends nothing when it reports its paper end. ' +
      'A printer fault is an answer, not an error: `printed` is false and `state` and `message` say why; `GET /printers` shows the last state of each printer. ' +
      'A printer id that is not registered is a 400. A kiosk key may print as `receiptUrl` only its store\'s own e-receipt address (the store\'s `receiptUrl`); any other is a 400.',
    request: { params, body: { content: { 'application/json': { schema: ReceiptPrintRequestSchema } } } },
    responses: { 200: json(dataOf(ReceiptPrintResultSchema), 'Whether the printer took the receipt.'), ...errors([400, 403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/printers',
    ...EXTENSION,
    summary: "Register a store's network receipt printer (Write key)",
    description: `Staff register each receipt printer once; kiosks and the staff page then name it by id. ${ADDRESS_RULES}`,
    request: { body: { content: { 'application/json': { schema: PrinterCreateSchema } } } },
    responses: { 201: json(CreatedSchema, 'Registered.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/printers',
    ...EXTENSION,
    summary: 'Registered receipt printers and their last state (any key)',
    description: "The key's organization's printers, by store and name, each with the state the server last found it in since it started (`unknown` before that).",
    responses: { 200: json(z.object({ data: z.array(PrinterStatusSchema) }), 'The printers.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/printers/{printerId}',
    ...EXTENSION,
    summary: 'Remove a registered printer (Write key)',
    description: 'Print requests that name it are refused from then on.',
    request: { params: printerParams },
    responses: { 200: json(SuccessSchema, 'Removed.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/printers/{printerId}/check',
    ...EXTENSION,
    summary: 'Ask a registered printer for its paper status, printing nothing (Write key)',
    description:
      'The kiosk calls it at start, so `GET /printers` (and the staff page) show the printer and its state before the first sale. ' +
      `A printer fault is an answer, not an error: \`state\` and \`message\` say why. ${ADDRESS_RULES}`,
    request: { params: printerParams },
    responses: { 200: json(dataOf(PrinterStatusSchema), 'The printer as the check found it.'), ...errors([400, 403, 404]) },
  });
}
