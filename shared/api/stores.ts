import { z } from 'zod';
import { CursorQuery, DateTimeSchema, IdSchema, limitQuery, updatedSinceQuery } from './common.js';
import { EmailSchema } from './email.js';
import { ReceiptUrlTemplateSchema } from './receipts.js';
import { STORE_LANGUAGES } from '../languages.js';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../time-zones.js';

export { STORE_LANGUAGES };

const LanguageSchema = z.enum(STORE_LANGUAGES, { error: 'must be one of "de", "en", "fr", "it"' });

const ImageRefSchema = z
  .union([z.string(), z.strictObject({ src: z.string() })], {
    error: (issue) =>
      issue.input === null
        ? 'cannot be cleared with null; send "" for no image'
        : 'must be a string or an object {"src": string}',
  })
  .describe('Image URL, as a string or as `{ "src": string }`; returned in the form it was sent.');

const storeFields = {
  name: z
    .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; a store always has a name' : 'must be a string') })
    .trim()
    .min(1, { error: 'must not be empty' })
    .describe('Often the brand.'),
  address: z.string(),
  zipCode: z.string(),
  city: z.string().describe('Tells the locations of the organization apart.'),
  vatNumber: z.string(),
  paymentCash: z.boolean(),
  paymentProviderA: z.boolean(),
  paymentProviderB: z.boolean(),
  paymentProviderBOffline: z.boolean(),
  paymentCashOffline: z.boolean(),
  showSupplier: z.boolean(),
  hideTextStart: z.boolean(),
  generalMargin: z.number(),
  customMessage: z.string(),
  backgroundImageCart: ImageRefSchema,
  backgroundImage: ImageRefSchema,
  backgroundColor: z.string(),
  backgroundFontColor: z.string(),
  playSound: z.boolean(),
  standardSound: z.string(),
  adminMail: EmailSchema,
  showInfoButton: z.boolean(),
  deleteCountdown: z.number().min(0, { error: 'must be 0 or more' }).describe('Countdown of the kiosk screen; 0 or more.'),
  logoUrl: z.string(),
  languageMulti: z.boolean(),
  languageMain: LanguageSchema.describe('Main language: "de", "en", "fr" or "it".'),
  languageSelector: z.array(LanguageSchema).describe('Languages offered on the screen, each "de", "en", "fr" or "it".'),
  translations: z.record(z.string(), z.unknown()).describe('Texts by language or key: a JSON object stored as given.'),
  receiptUrl: ReceiptUrlTemplateSchema.describe(
    "Extension: the store's own e-receipt address template, e.g. `https://shop.example/r/{orderId}`. A kiosk key's printed receipt may carry only this address as its QR code.",
  ),
  timeZone: z
    .string({ error: 'must be a string' })
    .refine(isTimeZone, { error: (issue) => `must be an IANA time zone name such as "Europe/Zurich", not ${JSON.stringify(issue.input)}` })
    .describe(`Extension: IANA time zone of the store, which decides its local day (daily report) and the time on its receipts. Absent means ${DEFAULT_TIME_ZONE}.`),
};

/** Fields the spec lets an update clear with `null`: all but `name` and the two background images. */
const NOT_CLEARABLE = ['name', 'backgroundImage', 'backgroundImageCart'] as const;
type NotClearable = (typeof NOT_CLEARABLE)[number];
type Fields = typeof storeFields;

const clearable = Object.fromEntries(
  Object.entries(storeFields)
    .filter(([key]) => !(NOT_CLEARABLE as readonly string[]).includes(key))
    .map(([key, schema]) => [key, schema.nullable().optional().describe(`${schema.description ?? ''} \`null\` clears it.`.trim())]),
) as { [K in Exclude<keyof Fields, NotClearable>]: z.ZodOptional<z.ZodNullable<Fields[K]>> };

const optionalFields = z.strictObject(storeFields).partial();

export const StoreCreateSchema = optionalFields
  .extend({ name: storeFields.name })
  .meta({
    id: 'StoreCreate',
    description: 'A new store. Unknown and read-only fields are refused; payment provider credentials are never accepted.',
  });

export const StoreUpdateSchema = optionalFields
  .extend({
    ...clearable,
    deleted: z.boolean().optional().describe('`true` soft-deletes; `false` restores.'),
  })
  .meta({ id: 'StoreUpdate', description: 'Partial update: only the fields sent change; `null` clears an optional field.' });

export const StoreSchema = z
  .object({
    id: IdSchema,
    ...optionalFields.shape,
    name: storeFields.name,
    deleted: z.boolean(),
    createdate: DateTimeSchema,
    lastupdate: DateTimeSchema,
    instance: z.string().describe('Organization id.'),
  })
  .meta({ id: 'Store', description: 'A store. Optional fields that are not set are absent.' });

export const StoreListQuerySchema = z.object({
  limit: limitQuery(),
  cursor: CursorQuery.optional(),
  updatedSince: updatedSinceQuery('store'),
});

export type Store = z.infer<typeof StoreSchema>;
export type StoreCreate = z.infer<typeof StoreCreateSchema>;
export type StoreUpdate = z.infer<typeof StoreUpdateSchema>;
export type StoreListQuery = z.infer<typeof StoreListQuerySchema>;
