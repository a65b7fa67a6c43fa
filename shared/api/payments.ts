import { z } from 'zod';
import { CentsSchema, IdSchema } from './common.js';

export const PAYMENT_STATES = ['pending', 'unknown', 'approved', 'declined', 'cancelled', 'refunding', 'refunded', 'partially-refunded'] as const;
/** States the server keeps asking the terminal about: never final. */
export const OPEN_PAYMENT_STATES: readonly PaymentState[] = ['pending', 'unknown', 'refunding'];
/** Default largest amount of one card payment, in cents (CHF 5,000); `PAYMENT_MAX_CENTS` sets another. */
export const DEFAULT_PAYMENT_MAX_CENTS = 500_000;

export const PaymentStateSchema = z
  .enum(PAYMENT_STATES)
  .describe(
    '`pending`: sent to the terminal, no answer yet; `unknown`: the answer was lost, the server keeps asking the terminal; `approved`: the card was charged; ' +
      '`declined`: the terminal or the card refused, or the terminal was busy; `cancelled`: the customer or the kiosk cancelled before approval, or the terminal never got it; ' +
      '`refunding`: a refund (or the reversal of a refused approval) is out at the terminal, stored before it was sent; never final: the server asks the terminal until it tells, ' +
      'and meanwhile another refund of the payment, or an order naming it, answers 409; ' +
      '`refunded`: the whole amount went back (a refund, or a reversal of a refused approval); `partially-refunded`: part of it went back.',
  );

export const PaymentCreateSchema = z
  .strictObject({
    store: IdSchema.describe('Store of the sale; a kiosk key pays at its own store only.'),
    amount: CentsSchema.min(1, { error: 'must be at least 1 cent' }).describe('Amount to charge in cents; at most `PAYMENT_MAX_CENTS` (default 500000, CHF 5,000), else 400.'),
    currency: z.literal('CHF', { error: 'must be "CHF"' }).describe('ISO 4217 currency; `CHF`.'),
    reference: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(100, { error: 'must be at most 100 characters' })
      .describe(
        "The sale's own id (the order's `orderId`), per store: one charge per sale. While the store has a payment of the reference that is `pending`, `unknown`, `approved`, `refunding`, `refunded` or `partially-refunded`, another answers 409 with that payment in `data`; a declined or cancelled one, or a refused approval the server reversed, does not block.",
      ),
    terminal: IdSchema.optional().describe('Terminal id; needed only when the store has several.'),
  })
  .meta({ id: 'PaymentCreate' });

export const PaymentRefundSchema = z
  .strictObject({
    amount: CentsSchema.min(1, { error: 'must be at least 1 cent' }).optional().describe('Cents to give back; default what is left of the payment.'),
  })
  .meta({ id: 'PaymentRefund' });

export const PaymentListQuerySchema = z
  .strictObject({
    reference: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional().describe("The sale's reference: its attempts, oldest first."),
    since: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time, for example 2026-11-21T00:00:00.000Z' }).optional().describe('Payments started at or after this time, newest first (the staff page: today\'s payments).'),
    unrecorded: z
      .literal('true', { error: 'must be "true"' })
      .optional()
      .describe(
        '`true`: money taken without a sale, oldest first, for staff to refund or record: approved payments no order names yet (the kiosk died and the customer walked away), and refused approvals whose reversal the terminal has not confirmed yet (`refusal.reversed` false).',
      ),
    store: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional().describe('Only this store\'s payments.'),
  })
  .refine((q) => q.reference !== undefined || q.since !== undefined || q.unrecorded !== undefined, { error: 'name reference, since or unrecorded=true', path: ['reference'] });

export const PAYMENT_REASONS = ['terminal-busy', 'terminal-not-reached', 'unknown-to-terminal'] as const;

export const PaymentReasonSchema = z
  .enum(PAYMENT_REASONS)
  .describe(
    '`terminal-busy`: declined, the terminal was busy with another payment (try again in a moment); `terminal-not-reached`: cancelled, the server could not reach the terminal, nothing was sent; ' +
      '`unknown-to-terminal`: cancelled, the terminal has no record of the attempt (its answer was lost before it began).',
  );
export type PaymentReason = z.infer<typeof PaymentReasonSchema>;

export const PaymentSchema = z
  .object({
    id: IdSchema,
    store: z.string(),
    terminal: z.string().describe('Id of the terminal that takes it.'),
    reference: z.string(),
    amount: z.int().describe('Amount asked, in cents.'),
    refunded: z.int().describe('Cents the terminal gave back so far (refunds, or the reversal of a refused approval); only what the terminal confirmed.'),
    currency: z.string(),
    state: PaymentStateSchema,
    brand: z.string().nullable().describe('Card brand the terminal reported, e.g. `mc`, `visa`; null before approval.'),
    maskedPan: z.string().nullable().describe('Masked card number the terminal reported; null before approval.'),
    message: z.string().nullable().describe('What the terminal said, or why the server refused its answer, in words staff can act on.'),
    reason: PaymentReasonSchema.nullable().describe('Extension: why a `declined` or `cancelled` attempt ended so, as a code a kiosk can act on; null for every other outcome and for a plain refusal or cancellation.'),
    order: z.string().nullable().describe('Id of the order this payment paid; null while no order names it (an approved payment without one is open: refund it, or record its sale).'),
    refusal: z
      .object({
        amount: z.int().describe('Cents the terminal charged.'),
        currency: z.string().describe('Currency it charged in.'),
        reversed: z.boolean().describe('The terminal confirmed the reversal; false: charged, reversal pending (the server keeps trying; staff may refund it).'),
      })
      .nullable()
      .describe('Extension: the terminal approved another amount or currency than asked, so the server refused the approval and reverses it; null otherwise.'),
    receipt: z
      .object({
        customer: z.array(z.string()).describe("The terminal's customer receipt lines, exactly as it gave them."),
        cashier: z.array(z.string()).describe("The terminal's cashier (merchant) receipt lines."),
      })
      .describe('Empty until the terminal answers.'),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'Payment', description: 'A card payment attempt at a terminal.' });

export type PaymentState = z.infer<typeof PaymentStateSchema>;
export type PaymentCreate = z.infer<typeof PaymentCreateSchema>;
export type PaymentRefund = z.infer<typeof PaymentRefundSchema>;
export type Payment = z.infer<typeof PaymentSchema>;
export type PaymentListQuery = z.infer<typeof PaymentListQuerySchema>;
