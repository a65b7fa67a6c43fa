import { Router, type Request } from 'express';
import { IMAGE_PART, MAX_IMAGE_BYTES, type ProductImage } from '../../../shared/api/product-images.js';
import { requestOrigin } from '../../rules/image-urls.js';
import type { ProductImageService } from '../../services/product-images.js';
import { callerOf } from '../auth.js';
import { readFilePart } from '../multipart-file.js';

export interface ProductImageRouteOptions {
  /** `PUBLIC_URL`: origin (and path prefix) browsers reach the server under; otherwise the request's `Host`. */
  publicUrl?: string | undefined;
}

/** Upload and removal of a product's image (write key). */
export function productImageRoutes(images: ProductImageService, options: ProductImageRouteOptions = {}): Router {
  const router = Router();

  // Absolute URL of the API base (`.../api/v1`) as the client addressed it.
  const apiBaseOf = (req: Request) => {
    const origin =
      options.publicUrl ??
      requestOrigin(req.protocol, req.get('host'), { address: req.socket.localAddress ?? '127.0.0.1', port: req.socket.localPort ?? 80 });
    return `${origin}${req.baseUrl}`;
  };

  router.post('/products/:productId/image', async (req, res) => {
    const caller = callerOf(res);
    const id = req.params.productId;
    try {
      images.requireProduct(caller, id);
      const part = await readFilePart(req, { field: IMAGE_PART, maxBytes: MAX_IMAGE_BYTES, accept: images.typeOf });
      const url = await images.attach(caller, id, part, apiBaseOf(req));
      const data: ProductImage = { url, imageUrl: url };
      res.json({ data });
    } catch (err) {
      // The body was refused before it was all received: end the connection
      // after the answer rather than let the server drain the rest.
      if (!req.complete) res.set('Connection', 'close');
      throw err;
    }
  });

  router.delete('/products/:productId/image', (req, res) => {
    images.clear(callerOf(res), req.params.productId);
    res.json({ success: true });
  });

  return router;
}
