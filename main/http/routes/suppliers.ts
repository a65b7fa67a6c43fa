import { Router } from 'express';
import { SupplierCreateSchema, SupplierListQuerySchema, SupplierUpdateSchema } from '../../../shared/api/suppliers.js';
import { supplierAsSeenBy } from '../../rules/device-view.js';
import type { Caller } from '../../services/caller.js';
import type { SupplierService } from '../../services/suppliers.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function supplierRoutes(suppliers: SupplierService): Router {
  const router = Router();

  router.get('/suppliers', (req, res) => {
    res.json(supplierPageAnswer(suppliers, callerOf(res), req.query));
  });

  router.post('/suppliers', (req, res) => {
    const body = parseBody(SupplierCreateSchema, req.body);
    res.json({ success: true, id: suppliers.create(callerOf(res), body) });
  });

  router.get('/suppliers/:supplierId', (req, res) => {
    const caller = callerOf(res);
    res.json({ data: supplierAsSeenBy(caller.keyKind, suppliers.get(caller, req.params.supplierId)) });
  });

  router.post('/suppliers/:supplierId', (req, res) => {
    const body = parseBody(SupplierUpdateSchema, req.body);
    suppliers.update(callerOf(res), req.params.supplierId, body);
    res.json({ success: true });
  });

  return router;
}

/** `GET /suppliers`' answer to a query string's parameters, as the caller's key kind sees suppliers; 400 when they are not a valid query. */
export function supplierPageAnswer(suppliers: SupplierService, caller: Caller, rawQuery: unknown) {
  const page = suppliers.list(caller, parseQuery(SupplierListQuerySchema, rawQuery));
  return { ...page, data: page.data.map((supplier) => supplierAsSeenBy(caller.keyKind, supplier)) };
}
