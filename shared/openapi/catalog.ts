import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CATALOG_COLUMNS, CATALOG_FILE_TYPES, CatalogImportQuerySchema, CatalogImportRefusalSchema, CatalogImportResultSchema, MAX_CATALOG_FILE_BYTES } from '../api/catalog.js';
import { StandardErrorSchema, ValidationErrorSchema, dataOf } from '../api/common.js';
import { EXTENSION, errors, json } from './helpers.js';

const csvFile = z.string().meta({
  description:
    `A CSV file of products: UTF-8 (with or without a byte order mark) or Windows-1252, cells separated by \`,\` or \`;\`. ` +
    `Its first line names the columns, any of ${CATALOG_COLUMNS.join(', ')} (\`depositPrice\` is another name for \`depositProduct\`), in any order. ` +
    '`price`, `depositProduct`, `salePrice` and `costPrice` are francs as written on a receipt ("1.95" or "1,95"); `category` and `supplier` an id or a name. ' +
    'An empty cell leaves the field as it is.',
});

export function registerCatalogPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/catalog/import',
    ...EXTENSION,
    summary: 'Check or import a catalog file (Write key)',
    description:
      'A row updates the active product with its `externalId`, else the one with its `barcode`, else it creates a product. ' +
      'With `dryRun=true` the file is only checked: the answer says how many products would be created, updated or left unchanged, and lists every problem by line ' +
      '(the header is line 1) and column. Without it the file is checked the same way and, when it has no problem, every product is written in one transaction, ' +
      'each queued for the upstream like any write; a file with problems answers 400 in the standard error shape, with the same report in `data`, and writes nothing. ' +
      `Refused with 413: a file over ${MAX_CATALOG_FILE_BYTES} bytes (20 MiB).`,
    request: {
      query: CatalogImportQuerySchema,
      body: { required: true, content: Object.fromEntries(CATALOG_FILE_TYPES.map((type) => [type, { schema: csvFile }])) },
    },
    responses: {
      200: json(dataOf(CatalogImportResultSchema), 'Checked (`dryRun=true`), or imported.'),
      400: json(
        z.union([CatalogImportRefusalSchema, StandardErrorSchema, ValidationErrorSchema]),
        'The file has problems and nothing was written (the standard shape, with the report in `data`); or the body is not a CSV file (standard shape); or `dryRun` is neither true nor false (validation shape).',
      ),
      ...errors([403, 409, 413]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/catalog/export',
    ...EXTENSION,
    summary: 'The catalog as a CSV file (Read key)',
    description:
      'Every active product in id order, in the columns the import takes, UTF-8 with a byte order mark (so Excel reads the accents), `,`-separated, CRLF line ends. ' +
      'Money in francs with a point ("1.95"); `category` and `supplier` by name when no other active one has that name, otherwise by id. ' +
      'Importing the file unchanged changes nothing, and exporting again gives the same file.',
    responses: { 200: { description: 'The file.', content: { 'text/csv': { schema: z.string() } } }, ...errors([403]) },
  });
}
