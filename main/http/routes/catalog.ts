import { Router } from 'express';
import {
  CATALOG_FILE_TYPES,
  CatalogColumnMapSchema,
  CatalogExportQuerySchema,
  CatalogImportQuerySchema,
  ColumnTargetSchema,
  MAX_CATALOG_FILE_BYTES,
  WORKBOOK_TYPE,
  type CatalogColumnMap,
} from '../../../shared/api/catalog.js';
import type { CatalogFiles } from '../../catalog/catalog-files.js';
import { ValidationFailed } from '../../services/errors.js';
import { callerOf } from '../auth.js';
import { readFileBody } from '../file-body.js';
import { parseBody, parseQuery } from '../validation.js';

const USAGE = 'send the catalog file itself as the body, with Content-Type: text/csv, or an Excel workbook with Content-Type: ' + WORKBOOK_TYPE;

/** `?columns=` pairs checked like a kept mapping: each field must be a product field, or empty. */
function columnsOf(pairs: Record<string, string>): CatalogColumnMap {
  const columns: CatalogColumnMap = {};
  for (const [header, field] of Object.entries(pairs)) {
    const target = ColumnTargetSchema.safeParse(field);
    if (!target.success) throw new ValidationFailed({ columns: [`${header}:${field}: the field ${target.error.issues[0]!.message}`] });
    columns[header] = target.data;
  }
  return columns;
}

/**
 * `POST /catalog/import` (write key): a CSV file or workbook of products, checked or imported;
 * `GET /catalog/export` (read key): the catalog in the same columns; `/catalog/columns`: the kept mapping of headers.
 */
export function catalogRoutes(files: CatalogFiles): Router {
  const router = Router();

  router.post('/catalog/import', async (req, res) => {
    try {
      const query = parseQuery(CatalogImportQuerySchema, req.query);
      const columns = columnsOf(query.columns);
      const bytes = await readFileBody(req, { maxBytes: MAX_CATALOG_FILE_BYTES, types: [...CATALOG_FILE_TYPES, WORKBOOK_TYPE], usage: USAGE });
      const format = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === WORKBOOK_TYPE ? 'xlsx' : 'csv';
      const { result, written } = await files.importFile(callerOf(res), bytes, { dryRun: query.dryRun, format, columns, fixBarcodes: query.fixBarcodes });
      if (query.dryRun || written) {
        res.json({ data: result });
        return;
      }
      // A file with problems writes nothing: 400 in the standard shape, with the same report a check gives.
      const problems = result.errorsTotal;
      const message = `The file has ${problems} problem${problems === 1 ? '' : 's'} (listed in data.errors by line and column); nothing was imported. Correct the file and send it again.`;
      res.status(400).json({ statusCode: 400, message, timestamp: new Date().toISOString(), path: req.originalUrl, data: result });
    } catch (err) {
      // Refused before the whole body arrived: end the connection after the answer rather than drain the rest.
      if (!req.complete) res.set('Connection', 'close');
      throw err;
    }
  });

  router.get('/catalog/export', async (req, res) => {
    const { format } = parseQuery(CatalogExportQuerySchema, req.query);
    if (format === 'xlsx') {
      const workbook = await files.exportWorkbook(callerOf(res));
      res.type(WORKBOOK_TYPE).set('Content-Disposition', 'attachment; filename="catalog.xlsx"').send(workbook);
      return;
    }
    const file = await files.exportFile(callerOf(res));
    res.type('text/csv; charset=utf-8').set('Content-Disposition', 'attachment; filename="catalog.csv"').send(file);
  });

  router.get('/catalog/columns', (_req, res) => {
    res.json({ data: files.columns(callerOf(res)) });
  });

  router.post('/catalog/columns', (req, res) => {
    res.json({ data: files.keepColumns(callerOf(res), parseBody(CatalogColumnMapSchema, req.body)) });
  });

  return router;
}
