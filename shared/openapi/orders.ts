import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import { OrderCreateSchema, OrderListQuerySchema, OrderSchema, OrderUpdateSchema } from '../api/orders.js';
import { EXTENSION, errors, json } from './helpers.js';
import { StandardErrorSchema } from '../api/common.js';

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
      'Order price = sum of line prices and deposits. Idempotent on `orderId` per store: a repeat with the same store and the same sale ' +
      '(the same lines, and the same orderDate when it is sent) returns the first order id and stores nothing; the same orderId at another store ' +
      'is another sale. A kiosk key: `paymentState` only `successful`, `orderDate` at most 5 minutes ahead of the server and at most 90 days back ' +
      "(else 400); lines that differ from the catalog and late sales are recorded and listed in the day's report (`GET /reports/daily`).",
    request: { body: { content: { 'application/json': { schema: OrderCreateSchema } } } },
    responses: {
      200: json(CreatedSchema, 'Created, or the same sale already recorded at the store under this orderId.'),
      ...errors([400, 403]),
      409: json(StandardErrorSchema, 'This orderId is already recorded at the store for another sale (other lines or orderDate): the message names the difference.'),
    },
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
