import { Router } from 'express';
import { ProductCreateSchema, ProductListQuerySchema, ProductUpdateSchema } from '../../../shared/api/products.js';
import { productAsSeenBy } from '../../rules/device-view.js';
import type { ProductService } from '../../services/products.js';
import { callerOf } from '../auth.js';
import { parseBody, parseQuery } from '../validation.js';

export function productRoutes(products: ProductService): Router {
  const router = Router();

  router.get('/products', (req, res) => {
    const query = parseQuery(ProductListQuerySchema, req.query);
    const caller = callerOf(res);
    const page = products.list(caller, query);
    res.json({ ...page, data: page.data.map((product) => productAsSeenBy(caller.keyKind, product)) });
  });

  router.post('/products', (req, res) => {
    const body = parseBody(ProductCreateSchema, req.body);
    res.json({ success: true, id: products.create(callerOf(res), body) });
  });

  router.get('/products/:productId', (req, res) => {
    const caller = callerOf(res);
    res.json({ data: productAsSeenBy(caller.keyKind, products.get(caller, req.params.productId)) });
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
