import { z } from 'zod';
import { hasExactDecimals, QUANTITY_DECIMALS } from '../decimals.js';
import { CentsSchema, CursorQuery, DateTimeSchema, IdSchema, limitQuery } from './common.js';

/** Most lines one order may have. */
export const MAX_ORDER_LINES = 5000;
/** Largest quantity of one line. */
export const MAX_QUANTITY = 1_000_000;
// Kept apart from the schemas so that browser code can use them without bundling zod.
export { QUANTITY_DECIMALS, hasExactDecimals } from '../decimals.js';

const QuantitySchema = z
  .number({ error: 'must be a number' })
  .positive({ error: 'must be greater than 0' })
  .max(MAX_QUANTITY, { error: `must be at most ${MAX_QUANTITY}` })
  .refine(hasExactDecimals, { error: `must have at most ${QUANTITY_DECIMALS} decimal places` })
  .describe('Units sold; a decimal for weighed goods (0.5 = half a kilogram). At most 6 decimal places.');

const TaxRateSchema = z
  .number({ error: 'must be a number' })
  .min(0, { error: 'must be 0 or more' })
  .lt(1, { error: 'must be a fraction below 1 (0.081 for 8.1 %)' })
  .refine(hasExactDecimals, { error: `must have at most ${QUANTITY_DECIMALS} decimal places` })
  .describe('VAT rate as a fraction, not percent: 0.081 for 8.1 %.');

const text = z.string({ error: 'must be a string' });
const nonEmpty = text.trim().min(1, { error: 'must not be empty' });

export const OrderLineSchema = z
  .object({
    productId: IdSchema.describe('Product id.'),
    quantity: z.number().describe('Units sold; a decimal for weighed goods.'),
    title: z.string().describe("The product's name at the time of sale."),
    price: z.int().describe('Gross line total in cents (unit price x quantity, VAT included).'),
    netPrice: z.int().describe('price - tax, in cents.'),
    tax: z.int().describe('VAT contained in price: round(price x taxRate / (1 + taxRate)), in cents.'),
    taxRate: z.number().describe('VAT rate as a fraction (0.081), not percent.'),
    type: z.string().describe('`product` for a line of a regular product.'),
    supplier: z.string().optional().describe("Supplier id copied from the product; absent when the product has none."),
    category: z.string().optional().describe("Category id copied from the product; absent when the product has none."),
    deposit: z.int().describe('Deposit line total in cents (product deposit x quantity); 0 when none.'),
  })
  .meta({ id: 'OrderLine' });

const orderOptionalFields = {
  paymentMethod: text.describe('How the customer paid, e.g. `cash` or `card`.'),
  paymentBrand: text.describe('Card brand or payment provider.'),
  transactionDate: DateTimeSchema.describe('Time of the payment transaction.'),
  transactionMessage: text.describe("The payment terminal's message."),
  giftcardId: text.describe('Gift card used for the payment.'),
};

export const OrderSchema = z
  .object({
    id: IdSchema,
    orderId: z.string().describe("The till's own order number, unique per store; equals `id` when none was given on creation."),
    store: z.string().describe('Store id.'),
    price: z.int().describe('Order total in cents: sum of every line price and deposit.'),
    paymentState: z.string().describe('For example `successful`.'),
    paymentMethod: orderOptionalFields.paymentMethod.optional(),
    paymentBrand: orderOptionalFields.paymentBrand.optional(),
    orderDate: DateTimeSchema.describe('Time of the sale.'),
    transactionDate: orderOptionalFields.transactionDate.optional(),
    transactionMessage: orderOptionalFields.transactionMessage.optional(),
    giftcardId: orderOptionalFields.giftcardId.optional(),
    deleted: z.boolean().describe('true for a soft-deleted order.'),
    refunded: z
      .int()
      .optional()
      .describe('Cents given back to the customer by card refunds of its payment; absent until one. With it `paymentState` is `refunded` or `partially-refunded`.'),
    products: z.array(OrderLineSchema).describe('The order lines.'),
  })
  .meta({ id: 'Order', description: 'An order. Optional fields that were never set are absent.' });

export const OrderLineCreateSchema = z
  .strictObject({
    productId: nonEmpty.describe(
      'Id of an active product of the organization. When every line carries `title`, `price` and `taxRate`, the sale is recorded as sold: any product id, also of a deleted, stopped, deactivated or unknown product.',
    ),
    quantity: QuantitySchema,
    title: text.optional().describe("Name as sold; default: the product's name."),
    price: CentsSchema.optional().describe('Gross line total in cents as sold; default: unit price at orderDate x quantity.'),
    taxRate: TaxRateSchema.optional().describe("VAT rate as sold, a fraction; default: the rate of the product's taxCategory."),
    deposit: CentsSchema.optional().describe('Deposit line total in cents as sold; default: product deposit x quantity.'),
  })
  .meta({
    id: 'OrderLineCreate',
    description: 'A line to record. Fields other than productId and quantity are for sales recorded elsewhere, stored as sold.',
  });

export const OrderCreateSchema = z
  .strictObject({
    store: nonEmpty.describe('Id of an active store of the organization.'),
    products: z
      .array(OrderLineCreateSchema, { error: 'must be an array of lines' })
      .min(1, { error: 'must hold at least one line' })
      .max(MAX_ORDER_LINES, { error: `must hold at most ${MAX_ORDER_LINES} lines` }),
    orderId: nonEmpty
      .max(200, { error: 'must be at most 200 characters' })
      .optional()
      .describe(
        "The till's order number, unique per store: a repeated POST with the same store, orderId and sale returns the first order and creates nothing; " +
          'the same orderId at the same store with other lines or another orderDate is 409. Default: the new id.',
      ),
    paymentState: nonEmpty.optional().describe('Default `successful`; a kiosk key may send only `successful`.'),
    orderDate: DateTimeSchema.optional().describe('Time of the sale; default now. Decides whether a sale price applies.'),
    paymentMethod: orderOptionalFields.paymentMethod.optional(),
    paymentBrand: orderOptionalFields.paymentBrand.optional(),
    transactionDate: orderOptionalFields.transactionDate.optional(),
    transactionMessage: orderOptionalFields.transactionMessage.optional(),
    giftcardId: orderOptionalFields.giftcardId.optional(),
    payment: nonEmpty
      .max(200, { error: 'must be at most 200 characters' })
      .optional()
      .describe(
        'Id of the approved card payment (`POST /payments`) that paid this sale: its amount must equal the order total; the order then takes `paymentState` `successful`, `paymentMethod` `card` and the card brand. One payment pays one order (409). A kiosk key records a `card` sale only with its payment (422).',
      ),
  })
  .meta({ id: 'OrderCreate', description: 'A sale to record. Unknown and read-only fields are refused.' });

export const OrderUpdateSchema = z
  .strictObject({
    paymentState: nonEmpty.optional(),
    paymentMethod: orderOptionalFields.paymentMethod.optional(),
    paymentBrand: orderOptionalFields.paymentBrand.optional(),
    transactionDate: orderOptionalFields.transactionDate.optional(),
    transactionMessage: orderOptionalFields.transactionMessage.optional(),
    giftcardId: orderOptionalFields.giftcardId.optional(),
    deleted: z.boolean({ error: 'must be true or false' }).optional().describe('true soft-deletes the order; false restores it.'),
    refunded: CentsSchema.optional().describe('Cents given back by card refunds; a store PC sends it with the order\'s new `paymentState` after a refund.'),
  })
  .meta({ id: 'OrderUpdate', description: 'Partial update: only the fields sent change. Lines and prices cannot change.' });

export const OrderListQuerySchema = z
  .object({
    start: DateTimeSchema.describe('Earliest orderDate served (inclusive).'),
    end: DateTimeSchema.describe('Latest orderDate served (inclusive); must not be before start.'),
    paymentState: z.string().min(1, { error: 'must not be empty' }).optional().describe('Only orders in this payment state.'),
    limit: limitQuery(),
    cursor: CursorQuery.optional(),
    includeDeleted: z
      .enum(['true', 'false'], { error: 'must be "true" or "false"' })
      .optional()
      .transform((value) => value === 'true')
      .describe('`true` also serves soft-deleted orders.'),
  })
  .superRefine((query, ctx) => {
    if (Date.parse(query.end) < Date.parse(query.start)) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'must not be before start' });
    }
  });

export type Order = z.infer<typeof OrderSchema>;
export type OrderLine = z.infer<typeof OrderLineSchema>;
export type OrderLineCreate = z.infer<typeof OrderLineCreateSchema>;
export type OrderCreate = z.infer<typeof OrderCreateSchema>;
export type OrderUpdate = z.infer<typeof OrderUpdateSchema>;
export type OrderListQuery = z.infer<typeof OrderListQuerySchema>;
