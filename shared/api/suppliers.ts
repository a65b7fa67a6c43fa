import { z } from 'zod';
import { CursorQuery, DateTimeSchema, IdSchema, limitQuery, updatedSinceQuery } from './common.js';
import { EmailSchema } from './email.js';

const supplierFields = {
  name: z.string().trim().min(1, { error: 'must not be empty' }).describe('Display name; the list is ordered by it.'),
  externalId: z.string().describe('External identifier.'),
  company: z.string(),
  city: z.string(),
  street: z.string(),
  plz: z.string().describe('Postal code.'),
  email: EmailSchema,
  payoutEmail: EmailSchema,
  orderEmail: EmailSchema,
  phone: z.string(),
  contactPerson: z.string(),
  contactPhone: z.string(),
  dailyMail: z.string(),
  supplierMargin: z.number().describe('Margin of the supplier, a number as the organization defines it.'),
  iban: z.string(),
  bic: z.string(),
  bankName: z.string(),
  payoutsEnabled: z.boolean(),
};

const optionalFields = z.strictObject(supplierFields).partial();

export const SupplierCreateSchema = optionalFields
  .extend({ name: supplierFields.name })
  .meta({ id: 'SupplierCreate', description: 'A new supplier. Unknown and read-only fields are refused.' });

export const SupplierUpdateSchema = optionalFields
  .extend({ deleted: z.boolean().optional().describe('`true` soft-deletes; `false` restores.') })
  .meta({ id: 'SupplierUpdate', description: 'Partial update: only the fields sent change.' });

export const SupplierSchema = z
  .object({
    id: IdSchema,
    ...optionalFields.shape,
    name: supplierFields.name,
    organizationId: z.string().describe('Organization id.'),
    deleted: z.boolean(),
    createdate: DateTimeSchema,
  })
  .meta({
    id: 'Supplier',
    description: 'A supplier. Optional fields that were never set are absent. A kiosk key reads only `id`, `name`, `organizationId`, `deleted` and `createdate`.',
  });

export const SupplierListQuerySchema = z
  .object({
    limit: limitQuery(),
    updatedSince: updatedSinceQuery('supplier'),
    cursor: CursorQuery.optional()
      .describe('Extension: only with `updatedSince`, whose walk is paged; the plain list is not.')
      .meta({ 'x-extension': true }),
  })
  .superRefine((query, ctx) => {
    if (query.cursor !== undefined && query.updatedSince === undefined) {
      ctx.addIssue({ code: 'custom', path: ['cursor'], message: 'cursor is only allowed together with updatedSince; the supplier list is not paged' });
    }
  });

export type Supplier = z.infer<typeof SupplierSchema>;
export type SupplierCreate = z.infer<typeof SupplierCreateSchema>;
export type SupplierUpdate = z.infer<typeof SupplierUpdateSchema>;
export type SupplierListQuery = z.infer<typeof SupplierListQuerySchema>;
