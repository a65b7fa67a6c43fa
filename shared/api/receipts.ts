import { z } from 'zod';
import { STORE_LANGUAGES } from '../languages.js';
import { DEFAULT_PRINTER_PORT, PRINTER_HOST } from '../receipt/printer-address.js';

/** A receipt printer on the shop's network that takes ESC/POS commands over TCP. */
export const NetworkPrinterSchema = z
  .strictObject({
    host: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(253, { error: 'must be at most 253 characters' })
      .regex(PRINTER_HOST, { error: 'must be a host name or an IP address, e.g. "192.168.1.50"' })
      .describe('Host name or IP address of the printer.'),
    port: z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be 1 or more' })
      .max(65535, { error: 'must be at most 65535' })
      .default(DEFAULT_PRINTER_PORT)
      .describe('TCP port of its raw printing service; default 9100.'),
  })
  .meta({ id: 'NetworkPrinter' });

/** E-receipt address template: `{orderId}` becomes the till's order number. */
export const ReceiptUrlTemplateSchema = z
  .string({ error: 'must be a string' })
  .max(500, { error: 'must be at most 500 characters' })
  .refine((value) => /^https?:\/\//.test(value) && URL.canParse(value.replaceAll('{orderId}', 'x')), {
    error: "must be an http:// or https:// address; {orderId} stands for the till's order number",
  })
  .describe('E-receipt address template, e.g. `https://shop.example/r/{orderId}`: shown and printed as a QR code with `{orderId}` filled in.');

export const ReceiptPrintRequestSchema = z
  .strictObject({
    printer: NetworkPrinterSchema,
    language: z
      .enum(STORE_LANGUAGES, { error: 'must be one of "de", "en", "fr", "it"' })
      .optional()
      .describe("Language of the receipt; default the store's main language."),
    receiptUrl: ReceiptUrlTemplateSchema.optional(),
  })
  .meta({ id: 'ReceiptPrintRequest', description: 'Which printer gets the receipt, and in which language.' });

/** A kiosk names its printer at start, so staff see the printer and its faults before the first sale. */
export const PrinterCheckRequestSchema = z
  .strictObject({ printer: NetworkPrinterSchema })
  .meta({ id: 'PrinterCheckRequest', description: 'The printer to ask for its paper status.' });

export const PRINTER_STATES = ['ready', 'offline', 'paperOut', 'error'] as const;

export const PrinterStateSchema = z
  .enum(PRINTER_STATES)
  .describe('`ready`: the last receipt went out; `offline`: no connection (refused, timed out, unreachable); `paperOut`: the printer reported its paper end; `error`: the connection broke while sending.');

export const ReceiptPrintResultSchema = z
  .object({
    printed: z.boolean().describe('true when the printer took the whole receipt.'),
    printer: z.string().describe('`host:port`.'),
    state: PrinterStateSchema,
    message: z.string().nullable().describe('What went wrong, in words staff can act on; null when it printed.'),
  })
  .meta({ id: 'ReceiptPrintResult' });

export const PrinterStatusSchema = z
  .object({
    printer: z.string().describe('`host:port`.'),
    state: PrinterStateSchema,
    message: z.string().nullable(),
    lastAttemptAt: z.iso.datetime().describe('When the server last reached for it: a receipt, a day\'s report, or the check a kiosk asks for at start.'),
    lastPrintedAt: z.iso.datetime().nullable().describe('When it last took a whole receipt or report.'),
    orderId: z.string().nullable().describe("Id of the order of the last attempt; null when it was a day's report (`POST /reports/daily/print`)."),
  })
  .meta({ id: 'PrinterStatus', description: 'What the server remembers of a receipt printer since it started.' });

export type NetworkPrinter = z.infer<typeof NetworkPrinterSchema>;
export type ReceiptPrintRequest = z.infer<typeof ReceiptPrintRequestSchema>;
export type PrinterCheckRequest = z.infer<typeof PrinterCheckRequestSchema>;
export type PrinterState = z.infer<typeof PrinterStateSchema>;
export type ReceiptPrintResult = z.infer<typeof ReceiptPrintResultSchema>;
export type PrinterStatus = z.infer<typeof PrinterStatusSchema>;
