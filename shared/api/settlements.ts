import { z } from 'zod';
import { DateTimeSchema, IdSchema } from './common.js';

const text = (max: number) => z.string({ error: 'must be a string' }).trim().min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` });

export const PayoutAccountSchema = z
  .strictObject({
    name: text(70).describe('Account holder as the bank knows it; the debtor of payout files (at most 70 characters).'),
    iban: z.string({ error: 'must be a string' }).describe('IBAN of the account, with or without spaces; a QR-IBAN is refused (it takes only QR bills).'),
    bic: z.string({ error: 'must be a string' }).optional().describe("The bank's BIC; optional in Switzerland."),
    street: text(70).optional().describe('Street and number.'),
    zipCode: text(16).optional().describe('Postal code.'),
    city: text(35).optional().describe('Town.'),
    country: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter ISO country code such as CH' })
      .optional()
      .describe('ISO 3166 country code, e.g. `CH`.'),
  })
  .meta({ id: 'PayoutAccount', description: "The organization's own account, which payout files pay from." });

export const SettlementCreateSchema = z
  .strictObject({
    to: DateTimeSchema.describe('Takes the sales the server recorded before this instant; not in the future.'),
    store: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional().describe("Only this store's sales; default every store."),
  })
  .meta({ id: 'SettlementCreate' });

export const PayoutProblemSchema = z
  .enum(['payouts-disabled', 'no-iban', 'invalid-iban', 'nothing-to-pay'])
  .nullable()
  .describe('Why no payout is made for this supplier, or null when it is in the payout file.');

const TotalsSchema = z.object({
  gross: z.int().describe('Sum of the lines’ price less refunds, deposits excluded, in cents.'),
  margin: z.int().describe("The shop's margin in cents, rounded half up per supplier and store."),
  payout: z.int().describe('gross - margin, in cents.'),
});

export const SettlementSupplierSchema = TotalsSchema.extend({
  supplier: IdSchema.describe('Supplier id.'),
  name: z.string().describe("The supplier's name."),
  marginPercent: z.number().describe("The margin percent: the supplier's supplierMargin, else the store's generalMargin, else 0 (weighted when stores differ)."),
  lines: z.int().describe('Number of lines behind the amounts (sales and later refunds).'),
  payoutProblem: PayoutProblemSchema,
}).meta({ id: 'SettlementSupplier' });

export const SettlementSummarySchema = z
  .object({
    id: IdSchema,
    number: z.int().describe('1, 2, 3 … per organization, without gaps.'),
    to: DateTimeSchema.describe('Sales recorded before this instant were taken.'),
    store: z.string().nullable().describe('The store settled, or null for every store.'),
    createdAt: DateTimeSchema,
    totals: TotalsSchema,
  })
  .meta({ id: 'SettlementSummary' });

export const SettlementSchema = SettlementSummarySchema.extend({
  suppliers: z.array(SettlementSupplierSchema),
}).meta({ id: 'Settlement', description: 'What each supplier sold and is owed, in cents.' });

export const StatementQuerySchema = z.object({
  format: z.enum(['pdf', 'csv'], { error: 'must be "pdf" or "csv"' }).optional().describe('`csv` for a spreadsheet; default PDF.'),
});

export type PayoutAccountBody = z.infer<typeof PayoutAccountSchema>;
export type SettlementCreate = z.infer<typeof SettlementCreateSchema>;
export type PayoutProblem = z.infer<typeof PayoutProblemSchema>;
export type SettlementSupplier = z.infer<typeof SettlementSupplierSchema>;
export type SettlementSummary = z.infer<typeof SettlementSummarySchema>;
export type Settlement = z.infer<typeof SettlementSchema>;
