import { z } from 'zod';
import { DEFAULT_MINIMUM_AGE, MINIMUM_AGES } from '../minimum-age.js';
import { TAX_CATEGORIES } from '../tax.js';
import { ScaleLabelSchema } from './scale-labels.js';
import { CentsSchema, CursorQuery, DateTimeSchema, IdSchema, StoreIdListSchema, limitQuery, updatedSinceQuery } from './common.js';

/** Effective maximum of `limit` when searching with `q`. */
export const MAX_SEARCH_LIMIT = 250;
/** Largest `offset` accepted with `q`. */
export const MAX_SEARCH_OFFSET = 10000;

export const TaxCategorySchema = z
  .enum(TAX_CATEGORIES, { error: `must be one of ${TAX_CATEGORIES.map((c) => `"${c}"`).join(', ')}` })
  .describe('Swiss VAT category: "8.1", "2.6", "3.8" or "0" (rates 8.1 %, 2.6 %, 3.8 %, 0 %).');

export const BarcodeAliasSchema = z
  .strictObject({
    code: z.string().trim().min(1, { error: 'must not be empty' }).describe('Additional EAN or other code; stored lowercased.'),
    quantity: z.number().positive({ error: 'must be greater than 0' }).default(1).describe('Base units the code stands for; default 1.'),
    price: CentsSchema.optional().describe('Pack price in cents.'),
    label: z.string().optional(),
    externalId: z.string().optional().describe('External article id.'),
  })
  .meta({ id: 'BarcodeAlias' });

const productWritableFields = {
  externalId: z.string().describe('External identifier.'),
  name: z.string().trim().min(1, { error: 'must not be empty' }),
  price: CentsSchema.describe('Gross price in cents (VAT included).'),
  supplier: z.string().describe('Supplier id.'),
  taxCategory: TaxCategorySchema,
  category: z.string().describe('Category id; the category decides `allowStore`/`hideStore`.'),
  declarations: z.string(),
  barcode: z.string().describe('Stored trimmed and lowercased; empty means the product id.'),
  barcodeAliases: z
    .array(BarcodeAliasSchema)
    .describe('Needs the barcode-aliases feature. An empty array removes the aliases.'),
  depositProduct: CentsSchema.describe('Deposit in cents per unit.'),
  depositProductLabel: z.string(),
  description: z.string(),
  salePrice: CentsSchema.describe('Sale price in cents, used between `salePriceDateFrom` and `salePriceDateTo`.'),
  salePercentage: z.number(),
  salePriceDateFrom: DateTimeSchema,
  salePriceDateTo: DateTimeSchema,
  costPrice: CentsSchema.describe('Purchase price in cents. Left out of answers to kiosk and scale keys.'),
  margin: z.number().describe('Left out of answers to kiosk and scale keys.'),
  showOnScreen: z.boolean(),
  ageRestriction: z.boolean().describe(`Sold only to buyers of a minimum age: \`minimumAge\`, ${DEFAULT_MINIMUM_AGE} when that is not given.`),
  minimumAge: z
    .union(MINIMUM_AGES.map((age) => z.literal(age)), { error: `must be ${MINIMUM_AGES.join(' or ')}` })
    .describe(
      `Extension: the age a buyer must have reached, ${MINIMUM_AGES.join(' or ')} (beer, wine and cider from 16 in Switzerland). ` +
        'Setting it sets `ageRestriction`; it cannot be sent with `ageRestriction: false`. ' +
        `Read: present exactly when \`ageRestriction\` is true, ${DEFAULT_MINIMUM_AGE} when only that was set; \`ageRestriction: false\` removes it.`,
    ),
  showOnScale: z.boolean(),
  saleStop: z.boolean(),
  deactivated: z.boolean(),
  openInput: z.boolean(),
  imageUrl: z.string().describe('Stored as given; an empty string on update clears it and deletes a stored image.'),
  index: z.int({ error: 'must be a whole number' }).describe('Sort position.'),
};

const optionalWritable = Object.fromEntries(
  Object.entries(productWritableFields).map(([key, schema]) => [key, schema.optional()]),
) as { [K in keyof typeof productWritableFields]: z.ZodOptional<(typeof productWritableFields)[K]> };

/** A product without an age limit cannot have one of its ages. */
const refuseAgeWithoutRestriction = (body: { ageRestriction?: boolean | undefined; minimumAge?: number | undefined }, ctx: z.RefinementCtx) => {
  if (body.minimumAge !== undefined && body.ageRestriction === false) {
    ctx.addIssue({
      code: 'custom',
      path: ['minimumAge'],
      message: 'cannot be set together with ageRestriction: false; send ageRestriction: true, or leave minimumAge out to sell without an age limit',
      // What a catalog file's check names this problem.
      params: { kind: 'age-limit-conflict' },
    });
  }
};

export const ProductCreateSchema = z
  .strictObject({
    ...optionalWritable,
    name: productWritableFields.name,
    price: productWritableFields.price,
    taxCategory: productWritableFields.taxCategory,
  })
  .superRefine(refuseAgeWithoutRestriction)
  .meta({ id: 'ProductCreate', description: 'A new product. Unknown and read-only fields are refused.' });

export const ProductUpdateSchema = z
  .strictObject(optionalWritable)
  .superRefine(refuseAgeWithoutRestriction)
  .meta({ id: 'ProductUpdate', description: 'Partial update: only the fields sent change.' });

export const ProductSchema = z
  .object({
    id: IdSchema,
    ...optionalWritable,
    name: productWritableFields.name,
    price: productWritableFields.price,
    taxCategory: productWritableFields.taxCategory,
    barcode: productWritableFields.barcode,
    imageUrl: z.string().describe('Empty string when the product has no image.'),
    barcodeAliases: z.array(BarcodeAliasSchema).optional().describe('Absent when the product has none.'),
    allowStore: StoreIdListSchema.optional().describe("Read-only copy of the category's allowed stores; absent when empty."),
    hideStore: StoreIdListSchema.optional().describe("Read-only copy of the category's hidden stores; absent when empty."),
    deleted: z.boolean(),
    createdate: DateTimeSchema,
    lastupdate: DateTimeSchema,
    instance: z.string().describe('Organization id.'),
    scaleLabel: ScaleLabelSchema.optional(),
  })
  .meta({ id: 'Product', description: 'A product. Optional fields that were never set are absent.' });

/** A list filter on one of the product's flags: `true` serves the products that have it set, `false` the others. */
const flagFilter = (flag: 'showOnScale' | 'showOnScreen') =>
  z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .transform((value) => value === 'true')
    .optional()
    .describe(`Extension: \`true\` serves only products with \`${flag}\` set, \`false\` only those without. Not with \`q\` or \`barcode\`.`);

export const ProductListQuerySchema = z
  .object({
    q: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe(
        'Search text; enables `offset`. Word starts in `name` (typos tolerated when the words as typed find little; ' +
          'from 4 letters also parts inside compound words, listed after the other matches), ' +
          'whole words in `description` and `declarations`, exact `barcode`, alias code or `externalId`; accents optional.',
      ),
    limit: limitQuery().describe(
      `Page size, 1 to 5000; default 100. With \`q\` at most ${MAX_SEARCH_LIMIT} apply: a larger value is served as ${MAX_SEARCH_LIMIT} and \`meta.limit\` says so.`,
    ),
    offset: z.coerce
      .number({ error: 'must be a whole number' })
      .int({ error: 'must be a whole number' })
      .min(0, { error: 'Number must be at least 0' })
      .max(MAX_SEARCH_OFFSET, { error: `Number must be at most ${MAX_SEARCH_OFFSET}` })
      .optional()
      .describe(`0 to ${MAX_SEARCH_OFFSET}, default 0; only with \`q\`.`),
    store: z.string().min(1).optional().describe('Leave out products hidden in this store.'),
    cursor: CursorQuery.optional().describe('Opaque cursor; only without `q`.'),
    barcode: z
      .string()
      .trim()
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe(
        'Extension: exact lookup by barcode or barcode-alias code (case-insensitive). A code that matches none but is a ' +
          'scale label (EAN-13 such as 21IIIIIVVVVVC) finds the product of its item code, with `scaleLabel`.',
      ),
    showOnScale: flagFilter('showOnScale'),
    showOnScreen: flagFilter('showOnScreen'),
    updatedSince: updatedSinceQuery(
      'product',
      'Also the label-scale feed. Not with `q` or `barcode`. With `showOnScale`, `showOnScreen` or `store`, a changed product ' +
        'the filter no longer takes (switched off the scale, hidden in the store) is listed as a removal (`deleted: true`).',
    ),
  })
  .superRefine((query, ctx) => {
    for (const field of ['showOnScale', 'showOnScreen', 'updatedSince'] as const) {
      if (query[field] === undefined) continue;
      if (query.q !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} cannot be combined with q` });
      if (query.barcode !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: `${field} cannot be combined with barcode` });
    }
    if (query.q === undefined && query.offset !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['offset'], message: 'offset is only allowed together with q' });
    }
    if (query.q !== undefined && query.cursor !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cursor is only allowed without q; use offset to page a search' });
    }
    if (query.q !== undefined && query.barcode !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['barcode'], message: 'barcode cannot be combined with q' });
    }
  });

export type Product = z.infer<typeof ProductSchema>;
export type ProductCreate = z.infer<typeof ProductCreateSchema>;
export type ProductUpdate = z.infer<typeof ProductUpdateSchema>;
export type ProductListQuery = z.infer<typeof ProductListQuerySchema>;
export type BarcodeAlias = z.infer<typeof BarcodeAliasSchema>;
