import { z } from 'zod';
import { STORE_LANGUAGES } from '../languages.js';
import { IdSchema } from './common.js';
import { PrinterStateSchema } from './printers.js';

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
    printer: IdSchema.describe('Id of a registered printer (`GET /printers`); a kiosk key may name only its own store\'s.'),
    language: z
      .enum(STORE_LANGUAGES, { error: 'must be one of "de", "en", "fr", "it"' })
      .optional()
      .describe("Language of the receipt; default the store's main language."),
    receiptUrl: ReceiptUrlTemplateSchema.optional(),
  })
  .meta({ id: 'ReceiptPrintRequest', description: 'Which printer gets the receipt, and in which language.' });

export const ReceiptPrintResultSchema = z
  .object({
    printed: z.boolean().describe('true when the printer took the whole receipt.'),
    printer: z.string().describe('Id of the printer.'),
    name: z.string().describe('Its name, as staff registered it.'),
    state: PrinterStateSchema,
    message: z.string().nullable().describe('What went wrong, in words staff can act on; null when it printed.'),
  })
  .meta({ id: 'ReceiptPrintResult' });

export type ReceiptPrintRequest = z.infer<typeof ReceiptPrintRequestSchema>;
export type ReceiptPrintResult = z.infer<typeof ReceiptPrintResultSchema>;
