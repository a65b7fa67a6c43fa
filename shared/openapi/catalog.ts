import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  CATALOG_COLUMNS,
  CATALOG_FILE_TYPES,
  CatalogColumnMapSchema,
  CatalogExportQuerySchema,
  CatalogImportQuerySchema,
  CatalogImportRefusalSchema,
  CatalogImportResultSchema,
  MAX_CATALOG_FILE_BYTES,
  MAX_WORKBOOK_UNPACKED_BYTES,
  WORKBOOK_TYPE,
} from '../api/catalog.js';
import { StandardErrorSchema, ValidationErrorSchema, dataOf } from '../api/common.js';
import { EXTENSION, errors, json } from './helpers.js';

const csvFile = z.string().meta({
  description:
    `A CSV file of products: UTF-8 (with or without a byte order mark) or Windows-1252, cells separated by \`,\` or \`;\`. ` +
    `Its first line names the columns, any of ${CATALOG_COLUMNS.join(', ')} (\`depositPrice\` is another name for \`depositProduct\`), in any order, ` +
    'or their German, French or Italian names (Strichcode, Bezeichnung, Preis, MWST, Kategorie, Lieferant; Code-barres, Désignation, Prix, TVA, Catégorie, Fournisseur; ' +
    'Codice a barre, Descrizione, Prezzo, IVA, Categoria, Fornitore), without regard to letter case or accents; a column with neither header nor values is ignored. ' +
    '`price`, `depositProduct`, `salePrice` and `costPrice` are francs as written on a receipt ("1.95", "1,95", "Fr. 1,95", "0.60 CHF", "CHF 4.–", "1\'234.50", "1.234,50"); ' +
    'booleans true/false, ja/nein, WAHR/FALSCH, oui/non, VRAI/FAUX, sì/no, VERO/FALSO; dates 2026-12-01 or 01.12.2026; `category` and `supplier` an id or a name. ' +
    'An empty cell leaves the field as it is.',
});

const workbookFile = z.string().meta({
  format: 'binary',
  description: `An Excel workbook (.xlsx): its first sheet, the first row the header, the same columns as a CSV file. At most ${MAX_WORKBOOK_UNPACKED_BYTES} bytes (100 MiB) unpacked.`,
});

export function registerCatalogPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/catalog/import',
    ...EXTENSION,
    summary: 'Check or import a catalog file or workbook (Write key)',
    description:
      'A row updates the active product with its `id`, else the one with its `externalId`, else the one with its `barcode`, else it creates a product. ' +
      'Headers are mapped by `columns`, then by the organization\'s kept mapping (`/catalog/columns`), then by name. ' +
      'With `dryRun=true` the file is only checked: the answer says how many products would be created, updated or left unchanged, lists the changes field by field, every problem by line ' +
      '(the header is line 1) and column (the first 1,000, with the total and the problems grouped by column and kind), and warnings that never block. Without it the file is checked the same way and, when it has no problem, every product is written in one transaction, ' +
      'each queued for the upstream like any write; a file with problems answers 400 in the standard error shape, with the same report in `data`, and writes nothing. ' +
      `Refused with 400: a file that is not what its Content-Type says (a workbook sent as CSV, an OpenDocument file, an old .xls), or a workbook that cannot be read or unpacks to more than ${MAX_WORKBOOK_UNPACKED_BYTES} bytes. ` +
      `Refused with 413: a file over ${MAX_CATALOG_FILE_BYTES} bytes (20 MiB).`,
    request: {
      query: CatalogImportQuerySchema,
      body: { required: true, content: { ...Object.fromEntries(CATALOG_FILE_TYPES.map((type) => [type, { schema: csvFile }])), [WORKBOOK_TYPE]: { schema: workbookFile } } },
    },
    responses: {
      200: json(dataOf(CatalogImportResultSchema), 'Checked (`dryRun=true`), or imported.'),
      400: json(
        z.union([CatalogImportRefusalSchema, StandardErrorSchema, ValidationErrorSchema]),
        'The file has problems and nothing was written (the standard shape, with the report in `data`); or the body is not a CSV file or a workbook, or not the one its Content-Type says (standard shape); or `dryRun` or `columns` is not valid (validation shape).',
      ),
      ...errors([403, 409, 413]),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/catalog/export',
    ...EXTENSION,
    summary: 'The catalog as a CSV file or an Excel workbook (Read key)',
    description:
      'Every active product in id order, in the columns the import takes, `id` first. CSV: UTF-8 with a byte order mark, `;`-separated (as Excel in Switzerland opens it), CRLF line ends, ' +
      'a barcode of digits written `="0761234567890"` so that a spreadsheet keeps it as text. Workbook (`format=xlsx`): one sheet, barcodes and other text as text cells, money and whole numbers as numbers. ' +
      'Money in francs with a point ("1.95"); `category` and `supplier` by name when no other active one has that name, otherwise by id. ' +
      'Importing the file unchanged changes nothing, and exporting again gives the same file.',
    request: { query: CatalogExportQuerySchema },
    responses: {
      200: { description: 'The file.', content: { 'text/csv': { schema: z.string() }, [WORKBOOK_TYPE]: { schema: z.string().meta({ format: 'binary' }) } } },
      ...errors([400, 403], { validation: true }),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/catalog/columns',
    ...EXTENSION,
    summary: "The organization's kept mapping of spreadsheet headers to product fields (Read key)",
    responses: { 200: json(dataOf(CatalogColumnMapSchema), 'The mapping; `{}` when none is kept.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/catalog/columns',
    ...EXTENSION,
    summary: "Keep a mapping of the shop's spreadsheet headers to product fields (Write key)",
    description: 'Replaces the kept mapping; every later import uses it for headers that `columns` does not map. `""` ignores a column. Not synced: it belongs to the PC where files are imported.',
    request: { body: { required: true, content: { 'application/json': { schema: CatalogColumnMapSchema } } } },
    responses: { 200: json(dataOf(CatalogColumnMapSchema), 'Kept.'), ...errors([400, 403]) },
  });
}
