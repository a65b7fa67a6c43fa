import { z } from 'zod';
import { STORE_LANGUAGES } from '../languages.js';
import { NetworkPrinterSchema } from './receipts.js';

/** The payment state whose orders a report counts as sales. */
export const COUNTED_PAYMENT_STATE = 'successful';

const isCalendarDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

const cents = (description: string) => z.int().describe(`${description} In cents.`);

export const DailyReportQuerySchema = z.object({
  store: z.string().min(1, { error: 'must not be empty' }).describe('Store id.'),
  date: z
    .string()
    .refine(isCalendarDay, { error: 'must be a day of the calendar as YYYY-MM-DD, for example 2026-11-24' })
    .describe("The store's local day, YYYY-MM-DD."),
});

export const DailyReportPrintRequestSchema = z
  .strictObject({
    ...DailyReportQuerySchema.shape,
    printer: NetworkPrinterSchema,
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
    firstSaleAt: z.string().nullable().describe('orderDate of the first counted sale (UTC); `null` without sales.'),
    lastSaleAt: z.string().nullable().describe('orderDate of the last counted sale (UTC); `null` without sales.'),
  })
  .meta({ id: 'DailyReport', description: "A store's takings of one local day: the figures of a till's closing report." });

export type DailyReportQuery = z.infer<typeof DailyReportQuerySchema>;
export type DailyReportPrintRequest = z.infer<typeof DailyReportPrintRequestSchema>;
export type DailyReport = z.infer<typeof DailyReportSchema>;
export type PaymentTotal = z.infer<typeof PaymentTotalSchema>;
export type PriceDeviation = z.infer<typeof PriceDeviationSchema>;
export type TaxRateTotal = z.infer<typeof TaxRateTotalSchema>;
