import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { StoreCreateSchema, StoreListQuerySchema, StoreSchema, StoreUpdateSchema } from '../api/stores.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ storeId: z.string().describe('Store id.') });

export function registerStorePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/stores',
    ...EXTENSION,
    summary: 'List active stores in id order, paged by cursor',
    request: { query: StoreListQuerySchema },
    responses: { 200: json(listOf(StoreSchema), 'A page of stores.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/stores',
    tags: ['Stores'],
    summary: 'Create a store (Write key)',
    description: 'Payment provider credentials are configured only in the dashboard and are refused here.',
    request: { body: { content: { 'application/json': { schema: StoreCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Created.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/stores/{storeId}',
    ...EXTENSION,
    summary: 'Read a store (also a soft-deleted one, with `deleted: true`)',
    request: { params },
    responses: { 200: json(dataOf(StoreSchema), 'The store.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/stores/{storeId}',
    tags: ['Stores'],
    summary: 'Update a store partially; `null` clears a field, `deleted: true` soft-deletes (Write key)',
    request: { params, body: { content: { 'application/json': { schema: StoreUpdateSchema } } } },
    responses: { 200: json(SuccessSchema, 'Updated.'), ...errors([400, 403, 404]) },
  });
}
