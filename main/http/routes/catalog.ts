import { Router } from 'express';
import { CATALOG_FILE_TYPES, CatalogImportQuerySchema, MAX_CATALOG_FILE_BYTES } from '../../../shared/api/catalog.js';
import type { CatalogFiles } from '../../catalog/catalog-files.js';
import { callerOf } from '../auth.js';
import { readFileBody } from '../file-body.js';
import { parseQuery } from '../validation.js';

const USAGE = 'send the catalog file itself as the body, with Content-Type: text/csv';

/** `POST /catalog/import` (write key): a CSV file of products, checked or imported; `GET /catalog/export` (read key): the catalog in the same columns. */
export function catalogRoutes(files: CatalogFiles): Router {
  const router = Router();

  router.post('/catalog/import', async (req, res) => {
    try {
      const query = parseQuery(CatalogImportQuerySchema, req.query);
      const bytes = await readFileBody(req, { maxBytes: MAX_CATALOG_FILE_BYTES, types: CATALOG_FILE_TYPES, usage: USAGE });
      const { result, written } = await files.importFile(callerOf(res), bytes, query);
      if (query.dryRun || written) {
        res.json({ data: result });
        return;
      }
      // A file with problems writes nothing: 400 in the standard shape, with the same report a check gives.
      const problems = result.errors.length;
      const message = `The file has ${problems} problem${problems === 1 ? '' : 's'} (listed in data.errors by line and column); nothing was imported. Correct the file and send it again.`;
      res.status(400).json({ statusCode: 400, message, timestamp: new Date().toISOString(), path: req.originalUrl, data: result });
    } catch (err) {
      // Refused before the whole body arrived: end the connection after the answer rather than drain the rest.
      if (!req.complete) res.set('Connection', 'close');
      throw err;
    }
  });

  router.get('/catalog/export', async (_req, res) => {
    const file = await files.exportFile(callerOf(res));
    res.type('text/csv; charset=utf-8').set('Content-Disposition', 'attachment; filename="catalog.csv"').send(file);
  });

  return router;
}
