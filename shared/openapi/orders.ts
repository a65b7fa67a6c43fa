import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { OrderCreateSchema, OrderListQuerySchema, OrderSchema, OrderUpdateSchema } from '../api/orders.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ orderId: z.string().describe('Order id (the `id` field, not `orderId`).') });

export function registerOrderPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/orders',
    tags: ['Orders'],
    summary: 'List orders of a time window, newest first',
    description:
      'Orders with `start` <= orderDate <= `end`, newest first (orderDate, then id), each with its `products` lines. ' +
      'Soft-deleted orders only with `includeDeleted=true`. Paged by `cursor`.',
    request: { query: OrderListQuerySchema },
    responses: { 200: json(listOf(OrderSchema), 'A page of orders.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/orders',
    ...EXTENSION,
    summary: 'Record a sale, priced from the catalog (Write key)',
    description:
      'Each line: price = unit price at orderDate (salePrice inside its window, else price) x quantity, rounded half up to cents; ' +
      'tax = round(price x taxRate / (1 + taxRate)); netPrice = price - tax; deposit = product deposit x quantity. ' +
      'Order price = sum of line prices and deposits. Idempotent on `orderId`: a repeat returns the first order id and stores nothing.',
    request: { body: { content: { 'application/json': { schema: OrderCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Created, or the order that already has this orderId.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/orders/{orderId}',
    tags: ['Orders'],
    summary: 'Read an order with its lines (also a soft-deleted one, with `deleted: true`)',
    request: { params },
    responses: { 200: json(dataOf(OrderSchema), 'The order.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/orders/{orderId}',
    ...EXTENSION,
    summary: 'Update payment fields of an order; `deleted: true` soft-deletes (Write key)',
    request: { params, body: { content: { 'application/json': { schema: OrderUpdateSchema } } } },
    responses: { 200: json(SuccessSchema, 'Updated.'), ...errors([400, 403, 404]) },
  });
}
