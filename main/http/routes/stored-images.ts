import { Router } from 'express';
import { IMAGES_PATH } from '../../rules/image-urls.js';
import { NotFound } from '../../services/errors.js';
import type { ProductImageService } from '../../services/product-images.js';

/** A stored file never changes under its name: a new upload gets a new name. */
const CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * Serves stored product images without a key, as browsers load `<img src>`.
 * Only names the image store issued and still records are served; every other
 * path under `/images` (the folder itself, dot segments, encoded separators,
 * temporary files) is a 404, so nothing else of `DATA_DIR` can be reached.
 */
export function storedImageRoutes(images: ProductImageService): Router {
  const router = Router();

  router.get(`/${IMAGES_PATH}/:file`, (req, res, next) => {
    const name = req.params.file;
    const image = images.servable(name);
    if (!image) throw new NotFound('Image', name);
    res.set({
      'Content-Type': image.contentType,
      ETag: `"${image.sha256}"`,
      'Cache-Control': CACHE_CONTROL,
      'X-Content-Type-Options': 'nosniff',
    });
    res.sendFile(image.path, { etag: false, dotfiles: 'deny' }, (err?: Error & { status?: number }) => {
      if (!err || res.headersSent) return;
      next(err.status === 404 ? new NotFound('Image', name) : err);
    });
  });

  router.all([`/${IMAGES_PATH}`, `/${IMAGES_PATH}/*rest`], (req) => {
    throw new NotFound('Image', req.path);
  });

  return router;
}
