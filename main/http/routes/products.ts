import { Router } from 'express';
import { ProductCreateSchema, ProductListQuerySchema, ProductUpdateSchema } from '../../../shared/api/products.js';
import type { ProductService } from '../../services/products.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function productRoutes(products: ProductService): Router {
  const router = Router();

  router.get('/products', (req, res) => {
    const query = parseQuery(ProductListQuerySchema, req.query);
    res.json(products.list(callerOf(res), query));
  });

  router.post('/products', (req, res) => {
    const body = parseBody(ProductCreateSchema, req.body);
    res.json({ success: true, id: products.create(callerOf(res), body) });
  });

  router.get('/products/:productId', (req, res) => {
    res.json({ data: products.get(callerOf(res), req.params.productId) });
  });

  router.post('/products/:productId', (req, res) => {
    const body = parseBody(ProductUpdateSchema, req.body);
    products.update(callerOf(res), req.params.productId, body);
    res.json({ success: true });
  });

  router.delete('/products/:productId', (req, res) => {
    products.remove(callerOf(res), req.params.productId);
    res.json({ success: true });
  });

  return router;
}
