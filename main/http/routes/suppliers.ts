import { Router } from 'express';
import { SupplierCreateSchema, SupplierListQuerySchema, SupplierUpdateSchema } from '../../../shared/api/suppliers.js';
import type { SupplierService } from '../../services/suppliers.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function supplierRoutes(suppliers: SupplierService): Router {
  const router = Router();

  router.get('/suppliers', (req, res) => {
    const query = parseQuery(SupplierListQuerySchema, req.query);
    res.json(suppliers.list(callerOf(res), query));
  });

  router.post('/suppliers', (req, res) => {
    const body = parseBody(SupplierCreateSchema, req.body);
    res.json({ success: true, id: suppliers.create(callerOf(res), body) });
  });

  router.get('/suppliers/:supplierId', (req, res) => {
    res.json({ data: suppliers.get(callerOf(res), req.params.supplierId) });
  });

  router.post('/suppliers/:supplierId', (req, res) => {
    const body = parseBody(SupplierUpdateSchema, req.body);
    suppliers.update(callerOf(res), req.params.supplierId, body);
    res.json({ success: true });
  });

  return router;
}
