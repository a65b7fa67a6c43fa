import { z } from 'zod';
import { CursorQuery, DateTimeSchema, IdSchema, StoreIdListSchema, limitQuery, updatedSinceQuery } from './common.js';

const categoryFields = {
  name: z.string().trim().min(1, { error: 'must not be empty' }),
  externalId: z.string().describe('External identifier.'),
  index: z.int({ error: 'must be a whole number' }).describe('Sort position.'),
  showOnScreen: z.boolean(),
  imageUrl: z.string(),
  marginMinPercent: z.number(),
  marginMaxPercent: z.number(),
  hideStore: StoreIdListSchema.describe(
    'Store ids where products of this category are hidden; each must name a store of the organization. An empty array removes the field.',
  ),
  allowStore: StoreIdListSchema.describe(
    'When not empty, products of this category show only in these stores; each must name a store of the organization. An empty array removes the field.',
  ),
};

const optionalFields = z.strictObject(categoryFields).partial();

export const CategoryCreateSchema = optionalFields
  .extend({ name: categoryFields.name })
  .meta({ id: 'CategoryCreate', description: 'A new category. Unknown and read-only fields are refused.' });

export const CategoryUpdateSchema = optionalFields
  .extend({ deleted: z.boolean().optional().describe('`true` soft-deletes; `false` restores.') })
  .meta({ id: 'CategoryUpdate', description: 'Partial update: only the fields sent change.' });

export const CategorySchema = z
  .object({
    id: IdSchema,
    ...optionalFields.shape,
    name: categoryFields.name,
    hideStore: StoreIdListSchema.optional().describe('Absent when empty.'),
    allowStore: StoreIdListSchema.optional().describe('Absent when empty.'),
    deleted: z.boolean(),
    createdate: DateTimeSchema,
  })
  .meta({ id: 'Category', description: 'A product category. Optional fields that were never set are absent.' });

export const CategoryListQuerySchema = z.object({
  limit: limitQuery(),
  cursor: CursorQuery.optional(),
  updatedSince: updatedSinceQuery('category'),
});

export type Category = z.infer<typeof CategorySchema>;
export type CategoryCreate = z.infer<typeof CategoryCreateSchema>;
export type CategoryUpdate = z.infer<typeof CategoryUpdateSchema>;
export type CategoryListQuery = z.infer<typeof CategoryListQuerySchema>;
