import { Router } from 'express';
import { ProductCreateSchema, ProductListQuerySchema, ProductUpdateSchema } from '../../../shared/api/products.js';
import { productAsSeenBy } from '../../rules/device-view.js';
import type { Caller } from '../../services/caller.js';
import type { ProductService } from '../../services/products.js';
import type { ProductRecord } from '../../storage/products.js';
import { callerOf } from '../auth.js';
import { entityTag, requireMatch } from '../product-etag.js';
import { parseBody, parseQuery } from '../validation.js';

export function productRoutes(products: ProductService): Router {
  const router = Router();

  router.get('/products', (req, res) => {
    res.json(productPageAnswer(products, callerOf(res), req.query));
  });

  router.post('/products', (req, res) => {
    const body = parseBody(ProductCreateSchema, req.body);
    res.json({ success: true, id: products.create(callerOf(res), body) });
  });

  router.get('/products/:productId', (req, res) => {
    const answer = productAnswer(products, callerOf(res), req.params.productId);
    res.set('ETag', entityTag(answer)).json(answer);
  });

  router.post('/products/:productId', (req, res) => {
    const body = parseBody(ProductUpdateSchema, req.body);
    const caller = callerOf(res);
    const ifMatch = req.headers['if-match'];
    // Checked inside the write's transaction: nothing can change the product between the check and the write.
    const precondition =
      ifMatch === undefined
        ? undefined
        : (current: ProductRecord | undefined) =>
            requireMatch(ifMatch, 'product', current && { tag: entityTag({ data: productAsSeenBy(caller.keyKind, current) }), gone: current.deleted === true });
    products.update(caller, req.params.productId, body, precondition);
    res.json({ success: true });
  });

  router.delete('/products/:productId', (req, res) => {
    products.remove(callerOf(res), req.params.productId);
    res.json({ success: true });
  });

  return router;
}

/** `GET /products/{productId}`'s answer, as the caller's key kind sees the product. */
export function productAnswer(products: ProductService, caller: Caller, productId: string) {
  return { data: productAsSeenBy(caller.keyKind, products.get(caller, productId)) };
}

/** `GET /products`' answer to a query string's parameters; 400 when they are not a valid query. */
export function productPageAnswer(products: ProductService, caller: Caller, rawQuery: unknown) {
  const page = products.list(caller, parseQuery(ProductListQuerySchema, rawQuery));
  return { ...page, data: page.data.map((product) => productAsSeenBy(caller.keyKind, product)) };
}
