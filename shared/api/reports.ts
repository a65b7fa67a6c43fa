import { z } from 'zod';
import { STORE_LANGUAGES } from '../languages.js';
import { CalendarDaySchema, IdSchema } from './common.js';

/** The payment state whose orders a report counts as sales. */
export const COUNTED_PAYMENT_STATE = 'successful';

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

export const PriceDeviationSchema = z
  .object({
    orderId: z.string().describe("The order's `id` (as `GET /orders/{orderId}` takes it)."),
    productId: z.string(),
    title: z.string().describe('The line title as recorded.'),
    quantity: z.number(),
    price: cents('The line price the kiosk sent and the order kept.'),
    catalogPrice: cents("The catalog's price for that quantity when the sale was recorded."),
  })
  .meta({ id: 'PriceDeviation', description: 'A kiosk sale line whose own price differs from the catalog.' });

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
    sales: z.int().describe(`Orders in payment state \`${COUNTED_PAYMENT_STATE}\`, not deleted, whose orderDate falls on the local day.`),
    total: cents('Sum of their order totals (lines and deposits).'),
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
        "Extension of the contract: lines a kiosk key recorded at a price of its own that differs from the catalog's for that quantity " +
          '(sale price within its window by the order date, else price, as the catalog stood when the sale was recorded), in orders of the day that are not deleted; oldest first.',
      ),
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
export type TaxRateTotal = z.infer<typeof TaxRateTotalSchema>;
