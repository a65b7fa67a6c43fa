import { z } from 'zod';
import { IdSchema } from './common.js';
import { DEFAULT_PRINTER_PORT, PRINTER_HOST } from '../receipt/printer-address.js';

export const PRINTER_STATES = ['ready', 'offline', 'paperOut', 'error'] as const;

export const PrinterStateSchema = z
  .enum(PRINTER_STATES)
  .describe('`ready`: the last receipt went out; `offline`: no connection (refused, timed out, unreachable); `paperOut`: the printer reported its paper end; `error`: the connection broke while sending.');

/** A receipt printer staff register for a store; print endpoints name it by id. */
export const PrinterCreateSchema = z
  .strictObject({
    store: IdSchema.describe('Id of the store the printer stands in; kiosk keys of that store may print on it.'),
    name: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'must be at most 100 characters' })
      .describe('What staff call it, e.g. "Kasse 1".'),
    host: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(253, { error: 'must be at most 253 characters' })
      .regex(PRINTER_HOST, { error: 'must be a host name or an IP address, e.g. "192.168.1.50"' })
      .describe('Host name or IP address of the printer on the store network: a private LAN address (10.x, 172.16-31.x, 192.168.x, fc00::/7) unless `PRINTER_ALLOW_ADDRESSES` allows more.'),
    port: z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be 1 or more' })
      .max(65535, { error: 'must be at most 65535' })
      .default(DEFAULT_PRINTER_PORT)
      .describe('TCP port of its raw printing service; default 9100. One of 9100-9102 unless `PRINTER_PORTS` allows more.'),
  })
  .meta({ id: 'PrinterCreate' });

export const PrinterStatusSchema = z
  .object({
    id: IdSchema,
    store: z.string(),
    name: z.string(),
    host: z.string(),
    port: z.int(),
    state: z
      .enum([...PRINTER_STATES, 'unknown'])
      .describe('The last attempt\'s outcome (see PrinterState); `unknown` until the server reaches for the printer after it started.'),
    message: z.string().nullable().describe('What went wrong, in words staff can act on; null when it printed or was not tried yet.'),
    lastAttemptAt: z.iso.datetime().nullable().describe("When the server last reached for it: a receipt, a day's report, or a check; null since the server started."),
    lastPrintedAt: z.iso.datetime().nullable().describe('When it last took a whole receipt or report.'),
    orderId: z.string().nullable().describe("Id of the order of the last print; null when it was a day's report or none."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PrinterStatus', description: 'A registered receipt printer and what the server remembers of it since it started.' });

export type PrinterState = z.infer<typeof PrinterStateSchema>;
export type PrinterCreate = z.infer<typeof PrinterCreateSchema>;
export type PrinterStatus = z.infer<typeof PrinterStatusSchema>;
