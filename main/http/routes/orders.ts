import { Router, type RequestHandler } from 'express';
import { OrderCreateSchema, OrderListQuerySchema, OrderUpdateSchema } from '../../../shared/api/orders.js';
import type { OrderService } from '../../services/orders.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function orderRoutes(orders: OrderService): Router {
  const router = Router();

  router.get('/orders', (req, res) => {
    const query = parseQuery(OrderListQuerySchema, req.query);
    res.json(orders.list(callerOf(res), query));
  });

  router.post('/orders', takeOrder(orders));

  router.get('/orders/:orderId', (req, res) => {
    res.json({ data: orders.get(callerOf(res), req.params.orderId) });
  });

  router.post('/orders/:orderId', (req, res) => {
    const body = parseBody(OrderUpdateSchema, req.body);
    orders.update(callerOf(res), req.params.orderId, body);
    res.json({ success: true });
  });

  return router;
}

/** `POST /orders`; also run by the hot writes (http/hot-writes.ts) for a request that takes their lane. */
export function takeOrder(orders: OrderService): RequestHandler {
  return (req, res) => {
    const body = parseBody(OrderCreateSchema, req.body);
    res.json({ success: true, id: orders.create(callerOf(res), body) });
  };
}
