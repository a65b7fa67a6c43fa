import { Router } from 'express';
import { StoreCreateSchema, StoreListQuerySchema, StoreUpdateSchema } from '../../../shared/api/stores.js';
import type { Caller } from '../../services/caller.js';
import type { StoreService } from '../../services/stores.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function storeRoutes(stores: StoreService): Router {
  const router = Router();

  router.get('/stores', (req, res) => {
    res.json(storePageAnswer(stores, callerOf(res), req.query));
  });

  router.post('/stores', (req, res) => {
    const body = parseBody(StoreCreateSchema, req.body);
    res.json({ success: true, id: stores.create(callerOf(res), body) });
  });

  router.get('/stores/:storeId', (req, res) => {
    res.json({ data: stores.get(callerOf(res), req.params.storeId) });
  });

  router.post('/stores/:storeId', (req, res) => {
    const body = parseBody(StoreUpdateSchema, req.body);
    stores.update(callerOf(res), req.params.storeId, body);
    res.json({ success: true });
  });

  return router;
}

/** `GET /stores`' answer to a query string's parameters; 400 when they are not a valid query. */
export function storePageAnswer(stores: StoreService, caller: Caller, rawQuery: unknown) {
  return stores.list(caller, parseQuery(StoreListQuerySchema, rawQuery));
}
