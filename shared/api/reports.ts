import { z } from 'zod';
import { STORE_LANGUAGES } from '../languages.js';
import { CalendarDaySchema, IdSchema } from './common.js';

/** The payment states whose orders a report counts as sales: an order refunded by card still counts on its sale's day. */
export const COUNTED_PAYMENT_STATES = ['successful', 'partially-refunded', 'refunded'] as const;

const cents = (description: string) => z.int().describe(`${description} In cents.`);

export const DailyReportQuerySchema = z.object({
  store: z.string().min(1, { error: 'must not be empty' }).describe('Store id.'),
  date: CalendarDaySchema.describe("The store's local day, YYYY-MM-DD."),
});

export const DailyReportPrintRequestSchema = z
  .strictObject({
    ...DailyReportQuerySchema.shape,
    printer: IdSchema.describe('Id of a registered printer (`GET /printers`).'),
    language: z
      .enum(STORE_LANGUAGES, { error: 'must be one of "de", "en", "fr", "it"' })
      .optional()
      .describe("Language of the printout; default the store's main language."),
  })
  .meta({ id: 'DailyReportPrintRequest', description: "Which store's day goes to which receipt printer, and in which language." });

export const PaymentTotalSchema = z
  .object({
    paymentMethod: z.string().nullable().describe('As the orders carry it; `null` for orders without one.'),
    paymentBrand: z.string().nullable().describe('As the orders carry it; `null` for orders without one.'),
    sales: z.int().describe('Orders paid this way.'),
    total: cents('Their order totals, deposits included.'),
  })
  .meta({ id: 'PaymentTotal' });

export const TaxRateTotalSchema = z
  .object({
    taxRate: z.number().describe('VAT rate as a fraction (0.081).'),
    gross: cents('Sum of the line prices at this rate (deposits apart).'),
    net: cents('gross - tax.'),
    tax: cents("Sum of the lines' tax, each rounded as the order stored it."),
  })
  .meta({ id: 'TaxRateTotal' });

/** Why a kiosk's sale line is flagged for staff. */
export const LINE_FLAG_REASONS = ['unknown-product', 'price', 'tax-rate', 'deposit', 'zero-total'] as const;
export type LineFlagReason = (typeof LINE_FLAG_REASONS)[number];

const catalogValue = (description: string) => z.number().nullable().describe(`${description} \`null\` when the product is unknown.`);

export const PriceDeviationSchema = z
  .object({
    orderId: z.string().describe("The order's `id` (as `GET /orders/{orderId}` takes it)."),
    productId: z.string(),
    title: z.string().describe('The line title as recorded.'),
    quantity: z.number(),
    price: cents('The line price the kiosk sent and the order kept.'),
    catalogPrice: catalogValue("The catalog's price for that quantity (sale price within its window by the order date), in cents, as the catalog stood when the sale was recorded."),
    taxRate: z.number().describe('The tax rate the order kept, a fraction.'),
    catalogTaxRate: catalogValue("The rate of the product's taxCategory."),
    deposit: cents('The deposit the order kept for the line.'),
    catalogDeposit: catalogValue("The product's deposit for that quantity, in cents."),
    reasons: z
      .array(z.enum(LINE_FLAG_REASONS))
      .describe(
        'Why the line is flagged: `unknown-product` (no product with that id, letter case included), `price`, `tax-rate` or `deposit` ' +
          "(differs from the catalog's), `zero-total` (the line's total is 0 for a product that has a price).",
      ),
    orderDate: z.string().describe('orderDate of the order (UTC).'),
    recordedAt: z.string().describe('When the server recorded the order (UTC).'),
  })
  .meta({ id: 'PriceDeviation', description: "A kiosk sale line that differs from the catalog: recorded as sent, flagged for staff." });

export const LateSaleSchema = z
  .object({
    orderId: z.string().describe("The order's `id`."),
    orderDate: z.string().describe('The order date the kiosk sent (UTC).'),
    recordedAt: z.string().describe('When the server recorded it (UTC).'),
    total: cents('The order total.'),
  })
  .meta({ id: 'LateSale', description: 'A kiosk sale recorded long after its order date.' });

export const CardRefundsSchema = z
  .object({
    refunds: z.int().describe('Card refunds of sales the terminal confirmed on this day, sales of any day.'),
    total: cents('What they gave back; already taken off `total`, the card rows of `byPaymentMethod`, `byTaxRate` (in proportion to each order\'s gross per rate) and `card`.'),
  })
  .meta({ id: 'CardRefunds' });

export const CARD_WARNING_KINDS = ['payment-without-order', 'reversal-pending'] as const;

export const CardWarningSchema = z
  .object({
    kind: z
      .enum(CARD_WARNING_KINDS)
      .describe(
        '`payment-without-order`: an approved payment of the day no order names (money taken, no sale recorded: record the sale or refund it); ' +
          '`reversal-pending`: the terminal approved another amount or currency than asked and has not confirmed the reversal yet (the customer was charged; the server keeps reversing it).',
      ),
    payment: z.string().describe('Payment id (`GET /payments/{paymentId}`).'),
    amount: cents('What the terminal charged.'),
    currency: z.string(),
    createdAt: z.string().describe('When the payment was started (UTC).'),
    message: z.string().nullable().describe("The payment's message."),
  })
  .meta({ id: 'CardWarning', description: 'Money the terminal took that no sale accounts for: never hidden in a total.' });

export const CardBrandReconciliationSchema = z
  .object({
    brand: z.string().describe('Card brand as the terminal names it (VISA, MASTERCARD, …).'),
    payments: z.int().describe("Card payments of the day at this brand that the terminal approved, as this server recorded them (the store's terminals, refunded ones included)."),
    total: cents('Their amounts, refunds deducted.'),
    terminalPayments: z.int().nullable().describe("The terminals' own count of approved payments of this brand for the day; `null` when no terminal answered."),
    terminalTotal: cents("The terminals' own amount of this brand for the day, refunds deducted.").nullable(),
    difference: cents('`total - terminalTotal`: 0 when both agree; `null` when no terminal answered.').nullable(),
  })
  .meta({ id: 'CardBrandReconciliation' });

export const CardReconciliationSchema = z
  .object({
    byBrand: z.array(CardBrandReconciliationSchema).describe('One line per brand either side knows, by brand name.'),
    total: cents("Sum of `byBrand`'s `total`."),
    terminalTotal: cents("Sum of the terminals' totals; `null` when a terminal of the store did not answer.").nullable(),
    difference: cents('`total - terminalTotal`; `null` when a terminal did not answer.').nullable(),
    terminals: z
      .array(
        z.object({
          id: z.string().describe('Terminal id (`GET /terminals`).'),
          name: z.string(),
          answered: z.boolean().describe('The terminal gave its totals for the day.'),
          message: z.string().nullable().describe('Why it did not, when it did not.'),
        }),
      )
      .describe("The store's terminals asked for their totals (nexo reconciliation)."),
  })
  .meta({ id: 'CardReconciliation', description: "The day's card takings by brand beside the terminals' own totals: a difference is shown, never hidden." });

export const DailyReportSchema = z
  .object({
    store: z.string().describe('Store id.'),
    date: z.string().describe('The local day, YYYY-MM-DD.'),
    timeZone: z.string().describe("The store's time zone that decided which orders belong to the day."),
    sales: z.int().describe(`Orders in payment state ${COUNTED_PAYMENT_STATES.map((state) => `\`${state}\``).join(', ')}, not deleted, whose orderDate falls on the local day.`),
    total: cents("Sum of their order totals (lines and deposits), less the card refunds confirmed on the day (`refunds`)."),
    byPaymentMethod: z.array(PaymentTotalSchema).describe('By payment method and brand, in that order; totals add up to `total`.'),
    byTaxRate: z.array(TaxRateTotalSchema).describe('By VAT rate, lowest first; gross adds up to `total - deposits`.'),
    deposits: cents('Sum of the deposit lines, outside VAT.'),
    discounts: z
      .object({
        lines: z.int().describe('Lines sold at their sale price.'),
        amount: cents("Regular price minus sale price of those lines, the regular price read from today's catalog."),
      })
      .describe('Extension of the contract: sale-price discounts granted.'),
    otherPaymentStates: z
      .array(z.object({ paymentState: z.string(), sales: z.int(), total: cents('Their order totals.') }))
      .describe('Extension of the contract: orders of the day in other payment states (e.g. failed), not in the totals.'),
    deletedOrders: z
      .object({ sales: z.int().describe('Soft-deleted orders of the day.'), total: cents('Their order totals.') })
      .describe('Soft-deleted orders of the day, in any payment state; not in the totals.'),
    priceDeviations: z
      .array(PriceDeviationSchema)
      .describe(
        'Extension of the contract: lines a kiosk key recorded that differ from the catalog (`reasons` says how), in orders that are not ' +
          'deleted and whose orderDate falls on the day or that were recorded on the day; oldest order date first.',
      ),
    lateSales: z
      .array(LateSaleSchema)
      .describe(
        'Extension of the contract: kiosk sales recorded on this day more than 30 minutes after their order date (an order date set back, or a ' +
          'sale sent again after an outage), not deleted; oldest recording first. Their lines count on the day of their order date.',
      ),
    refunds: CardRefundsSchema.describe('Card refunds confirmed on this day, already taken off the totals.'),
    cardWarnings: z.array(CardWarningSchema).describe("The day's card payments that took money without a sale: approved without an order, or refused and not yet reversed; oldest first."),
    card: CardReconciliationSchema.describe(
      "Extension of the contract: card payments of the day (the store's local day, by when each payment was started) by brand, compared with the terminals' own totals.",
    ),
    firstSaleAt: z.string().nullable().describe('orderDate of the first counted sale (UTC); `null` without sales.'),
    lastSaleAt: z.string().nullable().describe('orderDate of the last counted sale (UTC); `null` without sales.'),
  })
  .meta({ id: 'DailyReport', description: "A store's takings of one local day: the figures of a till's closing report." });

export type CardReconciliation = z.infer<typeof CardReconciliationSchema>;
export type DailyReportQuery = z.infer<typeof DailyReportQuerySchema>;
export type DailyReportPrintRequest = z.infer<typeof DailyReportPrintRequestSchema>;
export type DailyReport = z.infer<typeof DailyReportSchema>;
export type PaymentTotal = z.infer<typeof PaymentTotalSchema>;
export type PriceDeviation = z.infer<typeof PriceDeviationSchema>;
export type LateSale = z.infer<typeof LateSaleSchema>;
export type TaxRateTotal = z.infer<typeof TaxRateTotalSchema>;
export type CardWarning = z.infer<typeof CardWarningSchema>;
