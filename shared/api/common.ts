import { z } from 'zod';

/** Largest page any list endpoint serves. */
export const MAX_LIMIT = 5000;
/** Page size when `limit` is not given. */
export const DEFAULT_LIMIT = 100;

export const IdSchema = z.string().min(1).max(200).describe('Document id: a random URL-safe string of 20 characters for records created here.');

export const DateTimeSchema = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time, for example 2026-11-21T08:30:00.000Z' })
  .describe('ISO 8601 date-time; stored and returned in UTC with milliseconds.');

export const CentsSchema = z.int({ error: 'must be a whole number of cents' }).min(0, { error: 'must be 0 or more cents' });

export const StoreIdListSchema = z.array(z.string().min(1)).describe('Store ids.');

/**
 * `limit` query parameter, validated in the validation shape. The message on the
 * upper bound is part of the contract: it says the number must be at most 5000.
 */
export const limitQuery = (max = MAX_LIMIT) =>
  z.coerce
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(1, { error: 'Number must be at least 1' })
    .max(max, { error: `Number must be at most ${max}` })
    .default(DEFAULT_LIMIT)
    .describe(`Page size, 1 to ${max}; default ${DEFAULT_LIMIT}.`);

export const CursorQuery = z
  .string()
  .min(1)
  .describe('Opaque cursor from `meta.nextCursor` of the previous page; pass unchanged.');

/**
 * Extension `updatedSince`, the change feed of a collection: marked in the
 * OpenAPI document so an upstream's client can tell that it is offered.
 */
export const updatedSinceQuery = (what: string, note = '') =>
  DateTimeSchema.optional()
    .describe(
      `Extension, the change feed: every ${what} whose last change is later than this, soft-deleted ones included ` +
        `(\`deleted: true\`), oldest change first, paged by \`cursor\`; \`meta.completeUntil\` says up to when the walk is complete. ` +
        'A time before the deletion horizon (the newest deletion a purge removed; soft-deleted records are purged after `DELETED_RETENTION_DAYS`, default 90; ' +
        'no horizon before the first purge) answers 410: ' +
        `read again from \`1970-01-01T00:00:00.000Z\`, which lists every record still kept. ${note}`.trim(),
    )
    .meta({ 'x-extension': true });

export const ListMetaSchema = z
  .object({
    total: z.int().describe('Match count; equals `returned` except for product search without `store` (estimated matches).'),
    returned: z.int().describe('Number of items in `data`.'),
    limit: z.int().describe('Applied page size.'),
    offset: z.int().optional().describe('Only for product search with `q`.'),
    nextCursor: z.string().optional().describe('Present when more results may exist; pass unchanged as `cursor`.'),
    completeUntil: DateTimeSchema.optional().describe(
      'Extension, only with `updatedSince`: every change up to this instant (of the server\'s clock) is in this walk, ' +
        'counted from its first page. Pass the first page\'s value as the next walk\'s `updatedSince`.',
    ),
  })
  .meta({ id: 'ListMeta' });

export const StandardErrorSchema = z
  .object({
    statusCode: z.int(),
    message: z.string().describe('What went wrong, naming the field or resource.'),
    timestamp: z.string().describe('ISO 8601 time of the error.'),
    path: z.string().describe('Request path.'),
  })
  .meta({ id: 'StandardError' });

export const ValidationErrorSchema = z
  .object({
    error: z.object({
      formErrors: z.array(z.string()),
      fieldErrors: z.record(z.string(), z.array(z.string())),
    }),
  })
  .meta({ id: 'ValidationError', description: 'Invalid query parameters of a list endpoint.' });

export const SearchUnavailableSchema = z
  .object({ error: z.string() })
  .meta({ id: 'SearchUnavailable', description: 'Product search is temporarily unavailable (index still building).' });

export const SuccessSchema = z.object({ success: z.boolean() }).meta({ id: 'Success' });

export const CreatedSchema = z
  .object({ success: z.boolean(), id: z.string().describe('Id of the created record.') })
  .meta({ id: 'Created' });

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const listOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), meta: ListMetaSchema });

export type ListMeta = z.infer<typeof ListMetaSchema>;
export type StandardError = z.infer<typeof StandardErrorSchema>;

const isCalendarDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A day of the calendar as YYYY-MM-DD (a store's local day). */
export const CalendarDaySchema = z.string().refine(isCalendarDay, { error: 'must be a day of the calendar as YYYY-MM-DD, for example 2026-11-24' });
