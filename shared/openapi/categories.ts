import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CategoryCreateSchema, CategoryListQuerySchema, CategorySchema, CategoryUpdateSchema } from '../api/categories.js';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ categoryId: z.string().describe('Category id.') });

export function registerCategoryPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/categories',
    ...EXTENSION,
    summary: 'List active categories in id order, paged by cursor',
    description: 'The v1 contract names this endpoint and `limit`; `cursor`, the response and the errors are this server\'s.',
    request: { query: CategoryListQuerySchema },
    responses: { 200: json(listOf(CategorySchema), 'A page of categories.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/categories',
    ...EXTENSION,
    summary: 'Create a category (Write key)',
    request: { body: { content: { 'application/json': { schema: CategoryCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Created.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/categories/{categoryId}',
    tags: ['Categories'],
    summary: 'Read a category (also a soft-deleted one, with `deleted: true`)',
    request: { params },
    responses: { 200: json(dataOf(CategorySchema), 'The category.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/categories/{categoryId}',
    tags: ['Categories'],
    summary: 'Update a category partially; `deleted: true` soft-deletes (Write key)',
    description: "An empty `hideStore`/`allowStore` removes the field. Products of the category follow the new lists at once.",
    request: { params, body: { content: { 'application/json': { schema: CategoryUpdateSchema } } } },
    responses: { 200: json(SuccessSchema, 'Updated.'), ...errors([400, 403, 404]) },
  });
}
