import { z } from 'zod';
import { StandardErrorSchema } from './common.js';

/**
 * Largest catalog file accepted: 20 MiB, about 80,000 products of 250 bytes.
 * A larger `Content-Length` is refused before any byte is read; a body
 * without one is counted as it arrives and cut off at the limit.
 */
export const MAX_CATALOG_FILE_BYTES = 20_971_520;

/** Body types a catalog file is accepted as (what browsers and spreadsheet programs send for a .csv file). */
export const CATALOG_FILE_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'] as const;

/**
 * The columns of a catalog file, in the order an export writes them: product
 * field names as the API names them. Money columns hold francs as written on
 * a receipt ("1.95" or "1,95"); `depositPrice` is accepted as another name
 * for `depositProduct`.
 */
export const CATALOG_COLUMNS = [
  'externalId',
  'barcode',
  'name',
  'price',
  'taxCategory',
  'category',
  'supplier',
  'depositProduct',
  'depositProductLabel',
  'salePrice',
  'salePriceDateFrom',
  'salePriceDateTo',
  'costPrice',
  'ageRestriction',
  'minimumAge',
  'showOnScreen',
  'showOnScale',
  'saleStop',
  'deactivated',
  'openInput',
  'index',
  'description',
  'declarations',
  'imageUrl',
] as const;

export type CatalogColumn = (typeof CATALOG_COLUMNS)[number];

/** Other header names a file may use for a column. */
export const CATALOG_COLUMN_ALIASES: Readonly<Record<string, CatalogColumn>> = { depositPrice: 'depositProduct' };

export const CatalogImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .transform((value) => value === 'true')
    .default(false)
    .describe('`true` checks the file and writes nothing: the answer says what an import would do.'),
});

export const CatalogFileErrorSchema = z
  .object({
    line: z.int().describe('Line of the file, the header being line 1 (a spreadsheet\'s row number).'),
    column: z.string().nullable().describe('The header\'s name of the column, as the file writes it; null when the whole line is wrong.'),
    message: z.string().describe('What is wrong and what would be accepted.'),
  })
  .meta({ id: 'CatalogFileError' });

export const CatalogImportResultSchema = z
  .object({
    created: z.int().describe('Rows that create a product (none matched by `externalId` or `barcode`).'),
    updated: z.int().describe('Rows that change the product they match.'),
    unchanged: z.int().describe('Rows whose product already holds every value of the row.'),
    errors: z.array(CatalogFileErrorSchema).describe('Every problem found, in line order; empty when the file can be imported.'),
  })
  .meta({ id: 'CatalogImportResult' });

/** A file with problems, not imported: the spec's standard error shape, with the check's report beside it. */
export const CatalogImportRefusalSchema = StandardErrorSchema.extend({ data: CatalogImportResultSchema }).meta({ id: 'CatalogImportRefusal' });

export type CatalogImportQuery = z.infer<typeof CatalogImportQuerySchema>;
export type CatalogFileError = z.infer<typeof CatalogFileErrorSchema>;
export type CatalogImportResult = z.infer<typeof CatalogImportResultSchema>;
