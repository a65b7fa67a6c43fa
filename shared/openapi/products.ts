import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, StandardErrorSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { ProductCreateSchema, ProductListQuerySchema, ProductSchema, ProductUpdateSchema } from '../api/products.js';
import { errors, json } from './helpers.js';

const params = z.object({ productId: z.string().describe('Product id.') });

export function registerProductPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/products',
    tags: ['Products'],
    summary: 'List, search or look up products by barcode',
    description:
      'Without `q`: active products in id order, paged by `cursor`. With `q`: search, best match first, paged by `offset`; ' +
      '`limit` is capped at 250; 503 while the search index is still being built after a start. ' +
      'With `barcode` (extension): exact match on barcode or alias code, or the product of a scale label with `scaleLabel`. ' +
      'With `showOnScale` and `updatedSince` (extensions): the label-scale feed; `updatedSince` also serves soft-deleted rows, ' +
      'oldest change first.',
    request: { query: ProductListQuerySchema },
    responses: { 200: json(listOf(ProductSchema), 'A page of products.'), ...errors([400, 403], { validation: true, search: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/products',
    tags: ['Products'],
    summary: 'Create a product (Write key)',
    request: { body: { content: { 'application/json': { schema: ProductCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Created.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/products/{productId}',
    tags: ['Products'],
    summary: 'Read a product (also a soft-deleted one, with `deleted: true`)',
    request: { params },
    responses: {
      200: {
        ...json(dataOf(ProductSchema), 'The product.'),
        headers: z.object({ ETag: z.string().describe('A strong entity tag of this answer (extension): send it as `If-Match` with an update to write only if the product is still as read.') }),
      },
      ...errors([403, 404]),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/products/{productId}',
    tags: ['Products'],
    summary: 'Update a product partially (Write key)',
    request: {
      params,
      headers: z.object({
        'if-match': z
          .string()
          .optional()
          .describe('The `ETag` of the product as read (extension; several separated by `,`, or `*` for any product that exists): the update is written only if the product still has it.'),
      }),
      body: { content: { 'application/json': { schema: ProductUpdateSchema } } },
    },
    responses: {
      200: json(SuccessSchema, 'Updated.'),
      ...errors([400, 403, 404]),
      412: json(StandardErrorSchema, 'With `If-Match`: the product changed or was deleted since it was read; nothing was written.'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/products/{productId}',
    tags: ['Products'],
    summary: 'Soft-delete a product (Write key)',
    request: { params },
    responses: { 200: json(SuccessSchema, 'Deleted (also when it already was).'), ...errors([403, 404]) },
  });
}
