import { z } from 'zod';
import { CursorQuery, DateTimeSchema, IdSchema, limitQuery, updatedSinceQuery } from './common.js';

const text = z.string({ error: 'must be a string' });
const nonEmpty = text.trim().min(1, { error: 'must not be empty' });

/** The optional fields of an identity log, written and read alike. */
const optionalLogFields = {
  logType: text.describe('Kind of check, as the kiosk names it.').optional(),
  appVersion: text.describe('Version of the app that made the check.').optional(),
  store: text.describe('Store id; on create it must name a store of the organization (also a soft-deleted one).').optional(),
  source: text
    .describe('Document source, e.g. `swiss_id_card`, `swiss_drivers_license_old`, `swiss_drivers_license_qr`, `passport`.')
    .optional(),
  user: text.describe('Who made the check.').optional(),
  birthDate: text.describe('Birth date read from the document, as read.').optional(),
  imageUrl: text.describe('Picture of the document.').optional(),
  rawText: text.describe('Raw MRZ or scan payload.').optional(),
};

export const IdentityLogSchema = z
  .object({
    id: IdSchema,
    access: z.boolean().describe('Whether access was granted.'),
    logDate: DateTimeSchema.describe('Time of the check.'),
    instance: z.string().describe('Organization id.'),
    ...optionalLogFields,
  })
  .meta({ id: 'IdentityLog', description: 'One identity check. Optional fields that were never set are absent.' });

export const IdentityLogCreateSchema = z
  .strictObject({
    access: z.boolean({ error: 'must be true or false' }).describe('Whether access was granted.'),
    logDate: DateTimeSchema.optional().describe('Time of the check; default now (a kiosk sends checks made offline with their own time).'),
    ...optionalLogFields,
  })
  .meta({ id: 'IdentityLogCreate', description: 'An identity check to record. Unknown and read-only fields are refused.' });

export const IdentityLogListQuerySchema = z
  .object({
    store: z.string().min(1, { error: 'must not be empty' }).optional().describe('Only checks made in this store.'),
    source: z.string().min(1, { error: 'must not be empty' }).optional().describe('Only checks of this document source.'),
    access: z
      .enum(['allowed', 'denied'], { error: 'must be "allowed" or "denied"' })
      .optional()
      .describe('`allowed`: only granted checks; `denied`: only refused ones.'),
    start: DateTimeSchema.optional().describe('Earliest logDate served (inclusive).'),
    end: DateTimeSchema.optional().describe('Latest logDate served (inclusive); must not be before start.'),
    limit: limitQuery(),
    cursor: CursorQuery.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.start !== undefined && query.end !== undefined && Date.parse(query.end) < Date.parse(query.start)) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'must not be before start' });
    }
  });

const blockedNames = {
  comment: text.describe('Why the identity is blocked.'),
  first_name: nonEmpty.describe('First name as on the document.'),
  last_name: nonEmpty.describe('Last name as on the document.'),
  birthDate: nonEmpty.describe('Birth date as on the document; once set it can be changed but not cleared.'),
};

export const BlockedIdentitySchema = z
  .object({
    id: IdSchema,
    date: DateTimeSchema.describe('When the identity was blocked.'),
    comment: z.string(),
    rawMrz: z.string().optional().describe('Raw MRZ of the document; absent when none was given.'),
    first_name: z.string(),
    last_name: z.string(),
    birthDate: z.string().optional().describe('Absent when unknown.'),
    deleted: z.boolean().describe('true once unblocked with DELETE.'),
  })
  .meta({ id: 'BlockedIdentity', description: 'An identity refused at every check.' });

export const BlockedIdentityCreateSchema = z
  .strictObject({
    comment: blockedNames.comment,
    first_name: blockedNames.first_name,
    last_name: blockedNames.last_name,
    birthDate: blockedNames.birthDate.optional(),
    rawMrz: text.optional().describe('Raw MRZ of the document.'),
  })
  .meta({ id: 'BlockedIdentityCreate', description: 'An identity to block. `date` is set by the server.' });

export const BlockedIdentityUpdateSchema = z
  .strictObject({
    comment: blockedNames.comment,
    first_name: blockedNames.first_name,
    last_name: blockedNames.last_name,
    birthDate: z
      .string({ error: (issue) => (issue.input === null ? 'cannot be cleared; omit it to keep the stored date' : 'must be a string') })
      .trim()
      .min(1, { error: 'cannot be cleared; omit it to keep the stored date' })
      .optional()
      .describe('Omit to keep the stored date; it cannot be cleared.'),
  })
  .meta({ id: 'BlockedIdentityUpdate', description: 'comment, first_name and last_name are required; birthDate is kept when omitted.' });

export const BlockedIdentityListQuerySchema = z.object({
  limit: limitQuery(),
  cursor: CursorQuery.optional(),
  updatedSince: updatedSinceQuery('blocked identity'),
});

export type IdentityLog = z.infer<typeof IdentityLogSchema>;
export type IdentityLogCreate = z.infer<typeof IdentityLogCreateSchema>;
export type IdentityLogListQuery = z.infer<typeof IdentityLogListQuerySchema>;
export type BlockedIdentity = z.infer<typeof BlockedIdentitySchema>;
export type BlockedIdentityCreate = z.infer<typeof BlockedIdentityCreateSchema>;
export type BlockedIdentityUpdate = z.infer<typeof BlockedIdentityUpdateSchema>;
export type BlockedIdentityListQuery = z.infer<typeof BlockedIdentityListQuerySchema>;

export const IdentityVerdictRequestSchema = z
  .strictObject({
    lastName: nonEmpty.max(200, { error: 'must be at most 200 characters' }).describe('Last name as read from the document.'),
    firstNames: text.max(200, { error: 'must be at most 200 characters' }).describe('Every given name as read, separated by spaces.'),
    birthDate: z.iso
      .date({ error: 'must be a date as YYYY-MM-DD, as read from the document' })
      .describe('Birth date as YYYY-MM-DD, as read from the document.'),
    rawText: text.max(2000, { error: 'must be at most 2000 characters' }).optional().describe('Raw MRZ of the document.'),
  })
  .meta({ id: 'IdentityVerdictRequest', description: 'An identity read by a kiosk, to be checked against the blocked list on the server.' });

export const IdentityVerdictSchema = z
  .object({ blocked: z.boolean().describe('true when the identity matches an active blocked identity of the organization.') })
  .meta({ id: 'IdentityVerdict', description: 'Whether the identity is blocked; the blocked list itself never leaves the server.' });

export type IdentityVerdictRequest = z.infer<typeof IdentityVerdictRequestSchema>;
export type IdentityVerdict = z.infer<typeof IdentityVerdictSchema>;
