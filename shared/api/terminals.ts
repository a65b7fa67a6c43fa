import { z } from 'zod';
import { IdSchema } from './common.js';
import { PRINTER_HOST } from '../receipt/printer-address.js';

/** Port of a nexo terminal's local Terminal API (HTTPS). */
export const DEFAULT_TERMINAL_PORT = 8443;

export const TERMINAL_PROTOCOLS = ['nexo-local'] as const;

const text = (max: number) => z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });

/** A card terminal staff register for a store; payments of that store go to it. */
export const TerminalCreateSchema = z
  .strictObject({
    store: IdSchema.describe('Id of the store the terminal stands in; kiosk keys of that store may take payments on it.'),
    name: text(100).describe('What staff call it, e.g. "Terminal Kasse 1".'),
    protocol: z.enum(TERMINAL_PROTOCOLS, { error: 'must be "nexo-local" (Adyen Terminal API, local mode)' }).describe('`nexo-local`: nexo messages in JSON over HTTPS, encrypted with the shared passphrase (Adyen Terminal API, local mode).'),
    host: text(253)
      .regex(PRINTER_HOST, { error: 'must be a host name or an IP address, e.g. "192.168.1.60"' })
      .describe('IP address of the terminal on the store network: a private LAN address unless `TERMINAL_ALLOW_ADDRESSES` allows more.'),
    port: z
      .int({ error: 'must be a whole number' })
      .min(1, { error: 'must be 1 or more' })
      .max(65535, { error: 'must be at most 65535' })
      .default(DEFAULT_TERMINAL_PORT)
      .describe('Port of its Terminal API; default and only port allowed on the private LAN: 8443.'),
    poiId: text(100).describe("The terminal's POIID, e.g. `V400m-324688179`."),
    keyIdentifier: text(100).describe('Identifier of the shared encryption key, as set up on the terminal.'),
    keyVersion: z.int({ error: 'must be a whole number' }).min(0, { error: 'must be 0 or more' }).describe('Version of the shared encryption key.'),
    passphrase: text(200).describe('Passphrase of the shared encryption key. Kept encrypted at rest, never answered or logged.'),
    certificate: z
      .string({ error: 'must be a string' })
      .includes('-----BEGIN CERTIFICATE-----', { error: 'must be a PEM certificate (-----BEGIN CERTIFICATE-----)' })
      .max(20000, { error: 'must be at most 20000 characters' })
      .describe("PEM of the CA that signed the terminal's TLS certificate; the server trusts no other for this terminal."),
  })
  .meta({ id: 'TerminalCreate' });

export const TerminalSchema = z
  .object({
    id: IdSchema,
    store: z.string(),
    name: z.string(),
    protocol: z.enum(TERMINAL_PROTOCOLS),
    host: z.string(),
    port: z.int(),
    poiId: z.string(),
  })
  .meta({ id: 'Terminal', description: 'A registered card terminal, without its passphrase.' });

export type TerminalCreate = z.infer<typeof TerminalCreateSchema>;
export type Terminal = z.infer<typeof TerminalSchema>;

export const TerminalTotalsSchema = z
  .object({
    terminal: IdSchema,
    totals: z
      .array(
        z.object({
          brand: z.string().describe('Card brand as the terminal names it, e.g. `mc`, `visa`.'),
          count: z.int().describe('Approved payments.'),
          amount: z.int().describe('Approved minus reversed, in cents.'),
        }),
      )
      .describe("The terminal's own totals since its last reconciliation, per brand."),
  })
  .meta({ id: 'TerminalTotals', description: "A terminal's own card totals, to compare with the day's card sales." });

export type TerminalTotals = z.infer<typeof TerminalTotalsSchema>;

export const TerminalCheckSchema = z
  .object({
    terminal: IdSchema,
    reachable: z.boolean().describe('true when the terminal answered a status query over its secured channel.'),
    message: z.string().nullable().describe('Why it could not be reached, in words staff can act on; null when it answered.'),
  })
  .meta({ id: 'TerminalCheck', description: 'Whether the server reaches the terminal now: the kiosk offers *Card* only then.' });

export type TerminalCheck = z.infer<typeof TerminalCheckSchema>;
