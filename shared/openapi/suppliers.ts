import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { SupplierCreateSchema, SupplierListQuerySchema, SupplierSchema, SupplierUpdateSchema } from '../api/suppliers.js';
import { errors, json } from './helpers.js';

const params = z.object({ supplierId: z.string().describe('Supplier id.') });

export function registerSupplierPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/suppliers',
    tags: ['Suppliers'],
    summary: 'List active suppliers by name (not paged)',
    description: 'Up to `limit` active suppliers ordered by `name` (binary order, ties by id). `meta` has no `nextCursor`.',
    request: { query: SupplierListQuerySchema },
    responses: { 200: json(listOf(SupplierSchema), 'Active suppliers.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/suppliers',
    tags: ['Suppliers'],
    summary: 'Create a supplier (Write key)',
    request: { body: { content: { 'application/json': { schema: SupplierCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Created.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/suppliers/{supplierId}',
    tags: ['Suppliers'],
    summary: 'Read a supplier (also a soft-deleted one, with `deleted: true`)',
    request: { params },
    responses: { 200: json(dataOf(SupplierSchema), 'The supplier.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/suppliers/{supplierId}',
    tags: ['Suppliers'],
    summary: 'Update a supplier partially; `deleted: true` soft-deletes (Write key)',
    request: { params, body: { content: { 'application/json': { schema: SupplierUpdateSchema } } } },
    responses: { 200: json(SuccessSchema, 'Updated.'), ...errors([400, 403, 404]) },
  });
}
