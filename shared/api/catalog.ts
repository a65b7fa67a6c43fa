import { z } from 'zod';
import { StandardErrorSchema } from './common.js';

/**
 * Largest catalog file accepted: 20 MiB, about 80,000 products of 250 bytes.
 * A larger `Content-Length` is refused before any byte is read; a body
 * without one is counted as it arrives and cut off at the limit.
 */
export const MAX_CATALOG_FILE_BYTES = 20_971_520;

/** Body types a catalog file is accepted as CSV (what browsers and spreadsheet programs send for a .csv file). */
export const CATALOG_FILE_TYPES = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel', 'application/octet-stream'] as const;

/** The body type of an Excel workbook (.xlsx). */
export const WORKBOOK_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Largest unpacked size of a workbook: 100 MiB of XML, several times what a
 * 20 MiB workbook of products holds. A workbook that unpacks to more (a zip
 * bomb) is refused before it is read.
 */
export const MAX_WORKBOOK_UNPACKED_BYTES = 104_857_600;

/**
 * The columns of a catalog file, in the order an export writes them: product
 * field names as the API names them. Money columns hold francs as written on
 * a receipt ("1.95" or "1,95"); `depositPrice` is accepted as another name
 * for `depositProduct`. `id` only says which product a row updates.
 */
export const CATALOG_COLUMNS = [
  'id',
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

/**
 * Other header names a file may use for a column: the names a Swiss shop
 * writes in German, French and Italian. A header is compared without letter
 * case, accents, spaces or punctuation ("Code-barres" is "codebarres").
 */
export const CATALOG_COLUMN_ALIASES: Readonly<Record<string, CatalogColumn>> = {
  depositPrice: 'depositProduct',
  // German
  Strichcode: 'barcode',
  EAN: 'barcode',
  'EAN-Code': 'barcode',
  Barcode: 'barcode',
  Bezeichnung: 'name',
  Artikel: 'name',
  Artikelname: 'name',
  Produkt: 'name',
  Preis: 'price',
  Verkaufspreis: 'price',
  VP: 'price',
  MWST: 'taxCategory',
  MwSt: 'taxCategory',
  'MWST-Satz': 'taxCategory',
  Kategorie: 'category',
  Warengruppe: 'category',
  Lieferant: 'supplier',
  Artikelnummer: 'externalId',
  'Art.-Nr.': 'externalId',
  Pfand: 'depositProduct',
  Depot: 'depositProduct',
  Aktionspreis: 'salePrice',
  'Aktion ab': 'salePriceDateFrom',
  'Aktion bis': 'salePriceDateTo',
  Einstandspreis: 'costPrice',
  Einkaufspreis: 'costPrice',
  Mindestalter: 'minimumAge',
  Beschreibung: 'description',
  Deklaration: 'declarations',
  Deaktiviert: 'deactivated',
  Verkaufsstopp: 'saleStop',
  // French
  'Code-barres': 'barcode',
  'Code EAN': 'barcode',
  Désignation: 'name',
  Article: 'name',
  Produit: 'name',
  Prix: 'price',
  'Prix de vente': 'price',
  TVA: 'taxCategory',
  Catégorie: 'category',
  Fournisseur: 'supplier',
  "Numéro d'article": 'externalId',
  Consigne: 'depositProduct',
  'Prix action': 'salePrice',
  "Prix d'achat": 'costPrice',
  'Âge minimum': 'minimumAge',
  Description: 'description',
  // Italian
  'Codice a barre': 'barcode',
  Descrizione: 'name',
  Articolo: 'name',
  Prezzo: 'price',
  'Prezzo di vendita': 'price',
  IVA: 'taxCategory',
  Categoria: 'category',
  Fornitore: 'supplier',
  'Numero articolo': 'externalId',
  Deposito: 'depositProduct',
  'Prezzo azione': 'salePrice',
  "Prezzo d'acquisto": 'costPrice',
  'Età minima': 'minimumAge',
};

/** A header as it is compared: without letter case, accents, spaces or punctuation. */
export const headerKey = (header: string): string =>
  header
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * `?columns=<header>:<field>,…` read into pairs; an empty field ignores the
 * column. A header holding `,` or `:` cannot be named here: keep the mapping
 * with `POST /catalog/columns` instead.
 */
const columnsQuery = z
  .string()
  .optional()
  .transform((text, ctx) => {
    const pairs: Record<string, string> = {};
    for (const part of (text ?? '').split(',')) {
      if (part.trim() === '') continue;
      const at = part.lastIndexOf(':');
      if (at < 0) {
        ctx.addIssue({ code: 'custom', message: `${JSON.stringify(part)} is not <header>:<field>; write e.g. Strichcode:barcode, or Strichcode: to ignore the column` });
        continue;
      }
      pairs[part.slice(0, at).trim()] = part.slice(at + 1).trim();
    }
    return pairs;
  });

export const CatalogImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .transform((value) => value === 'true')
    .default(false)
    .describe('`true` checks the file and writes nothing: the answer says what an import would do.'),
  fixBarcodes: z
    .enum(['true', 'false'], { error: 'must be "true" or "false"' })
    .transform((value) => value === 'true')
    .default(false)
    .describe(
      '`true` writes, for each barcode warning that suggests a code (`warnings[].suggested`), the suggested code instead of the cell\'s: a leading zero a spreadsheet dropped put back, or the barcode the row\'s product already holds for a code one digit off. Other warnings stay as they are.',
    ),
  columns: columnsQuery.describe(
    'The file\'s own headers mapped to product fields for this import, `<header>:<field>` separated by `,` (URL-encoded), e.g. `Strichcode:barcode,Preis:price,Notiz:`; an empty field ignores the column. Wins over the organization\'s kept mapping (`/catalog/columns`).',
  ),
});

/** A product field a column may be mapped to, or "" to ignore the column. */
export const ColumnTargetSchema = z.enum([...CATALOG_COLUMNS, ''], { error: `must be one of ${CATALOG_COLUMNS.join(', ')}, or "" to ignore the column` });

export const CatalogColumnMapSchema = z
  .record(z.string().min(1, { error: 'a header name cannot be empty' }).max(200), ColumnTargetSchema)
  .refine((map) => Object.keys(map).length <= 200, { error: 'at most 200 headers' })
  .describe('The file\'s own headers mapped to product fields (`""`: ignore the column). Headers are compared without letter case, accents, spaces or punctuation.')
  .meta({ id: 'CatalogColumnMap' });

export const CatalogExportQuerySchema = z.object({
  format: z
    .enum(['csv', 'xlsx'], { error: 'must be "csv" or "xlsx"' })
    .default('csv')
    .describe('`xlsx`: an Excel workbook whose barcodes are text cells; `csv` (default): `;`-separated UTF-8 with a byte order mark.'),
});

/**
 * What a problem of a catalog file is, as a stable code a page translates;
 * `message` says the same in English. Codes are only ever added.
 */
export const CATALOG_PROBLEM_KINDS = [
  // The file and its header
  'file-empty',
  'file-utf16',
  'quote-not-closed',
  'quote-in-cell',
  'header-unknown',
  'header-missing',
  'header-twice',
  'line-fields',
  // Cells
  'barcode-shortened',
  'francs-negative',
  'francs-invalid',
  'tax-invalid',
  'date-invalid',
  'boolean-invalid',
  'integer-invalid',
  // Rows and the catalog
  'external-id-ambiguous',
  'barcode-ambiguous',
  'barcode-repeated',
  'product-repeated',
  'category-unknown',
  'category-ambiguous',
  'supplier-unknown',
  'supplier-ambiguous',
  // The product's rules
  'required',
  'too-small',
  'too-big',
  'invalid-option',
  'invalid-format',
  'invalid-type',
  'age-limit-conflict',
  // Warnings
  'barcode-leading-zero',
  'barcode-check-digit',
  'barcode-check-digit-product',
  'letters-lost',
  'letters-lost-stored',
  'text-misread',
  'margin-below',
  'margin-above',
  'other',
] as const;

export type CatalogProblemKind = (typeof CATALOG_PROBLEM_KINDS)[number];

export const CatalogProblemKindSchema = z.enum(CATALOG_PROBLEM_KINDS).describe(
  [
    'What the problem is, for a page to say in its own language (`message` says it in English). `params` hold the values the text needs:',
    '`file-empty`, `file-utf16` (save it as CSV UTF-8), `quote-not-closed`, `quote-in-cell`: the file cannot be read (from `line` on);',
    '`header-unknown` {header}, `header-missing` {position}, `header-twice` {field, other}: line 1 names no field, or one twice;',
    '`line-fields` {count, expected}: the line has more or fewer cells than the header;',
    '`barcode-shortened`, `francs-negative`, `francs-invalid`, `date-invalid`, `boolean-invalid`, `integer-invalid` {value}, `tax-invalid` {value, options}: a cell cannot be read as its field;',
    '`external-id-ambiguous`, `barcode-ambiguous` {value, count}, `barcode-repeated` {value, otherLine}, `product-repeated` {otherLine}: the row cannot tell which product it updates;',
    '`category-unknown`, `supplier-unknown` {value}, `category-ambiguous`, `supplier-ambiguous` {value, count}: a reference names nothing, or several;',
    '`required`, `too-small` {minimum}, `too-big` {maximum}, `invalid-option` {options}, `invalid-format` {format}, `invalid-type` {expected}, `age-limit-conflict`: the product\'s own rules (`message` is the rule\'s);',
    'warnings `barcode-leading-zero` {value, code, format}, `barcode-check-digit` {value, expected}, `barcode-check-digit-product` {value, expected, productBarcode},',
    '`letters-lost` {value}, `letters-lost-stored` {value, stored}, `text-misread` {value, reads, charset: `utf-8`, `mac-roman` or `cp850`},',
    '`margin-below`, `margin-above` {margin, price, costPrice, limit, category};',
    '`other`: none of these; show `message`.',
  ].join(' '),
).meta({ id: 'CatalogProblemKind' });

/** The values a problem's text needs, as text: the cell's value, the expected check digit, the other line, the category's name, the margin's bounds… */
const ProblemParamsSchema = z.record(z.string(), z.string());

export const CatalogFileErrorSchema = z
  .object({
    line: z.int().describe('Line of the file, the header being line 1 (a spreadsheet\'s row number).'),
    column: z.string().nullable().describe('The header\'s name of the column, as the file writes it; null when the whole line is wrong.'),
    message: z.string().describe('What is wrong and what would be accepted, in English.'),
    kind: CatalogProblemKindSchema,
    params: ProblemParamsSchema.describe('The values `kind`\'s text needs (listed with `kind`), as text; `{}` when it needs none.'),
  })
  .meta({ id: 'CatalogFileError' });

/** At most this many errors and changes are listed in a report; the totals count all of them. */
export const MAX_REPORTED = 1000;

export const CatalogFileChangeSchema = z
  .object({
    line: z.int().describe('Line of the file.'),
    field: z.enum(CATALOG_COLUMNS).describe('The product field that changes.'),
    from: z.string().nullable().describe('The value the product holds, as an export writes it; null when not set.'),
    to: z.string().describe('The value the row writes, as an export writes it.'),
  })
  .meta({ id: 'CatalogFileChange' });

export const CatalogFileWarningSchema = CatalogFileErrorSchema.extend({
  suggested: z
    .string()
    .optional()
    .describe('For a barcode, the code the file most likely meant; `?fixBarcodes=true` writes it instead of the cell.'),
}).meta({ id: 'CatalogFileWarning' });

/** How many data rows a check's `preview` holds. */
export const PREVIEW_ROWS = 5;

export const CatalogHeaderColumnSchema = z
  .object({
    position: z.int().describe('The column\'s place in the file, the first being 1 (`preview` cells are at `position - 1`).'),
    name: z.string().describe('The header as the file writes it; empty for a column without one.'),
    field: z
      .union([z.enum(CATALOG_COLUMNS), z.literal(''), z.null()])
      .describe('The product field the column is read as; `""` when it is ignored; `null` when the header names no field (an error on line 1).'),
    source: z
      .enum(['name', 'kept', 'columns'])
      .nullable()
      .describe('Why: `name` (a field\'s name, or one of its German, French or Italian names), `kept` (the organization\'s kept mapping), `columns` (this import\'s `?columns=`); null when the header names no field.'),
  })
  .meta({ id: 'CatalogHeaderColumn' });

export const CatalogPreviewRowSchema = z
  .object({
    line: z.int().describe('Line of the file.'),
    cells: z.array(z.string()).describe('The row\'s cells as text, in the file\'s column order.'),
  })
  .meta({ id: 'CatalogPreviewRow' });

export const CatalogErrorGroupSchema = z
  .object({
    column: z.string().nullable().describe('The header\'s name of the column, or null for whole lines.'),
    message: z.string().describe('The problem in English, with the values of the lines left out (`"…"`).'),
    kind: CatalogProblemKindSchema,
    params: ProblemParamsSchema.describe(
      'The values of `kind`\'s text that every line of the group shares (the accepted tax categories, a barcode\'s format, a character set); the values of the lines are left out.',
    ),
    count: z.int().describe('How many lines have it.'),
    lines: z.array(z.int()).describe('The first 10 of those lines.'),
  })
  .meta({ id: 'CatalogErrorGroup' });

export const CatalogImportResultSchema = z
  .object({
    created: z.int().describe('Rows that create a product (none matched by `id`, `externalId` or `barcode`).'),
    updated: z.int().describe('Rows that change the product they match.'),
    unchanged: z.int().describe('Rows whose product already holds every value of the row.'),
    errors: z.array(CatalogFileErrorSchema).describe(`The problems found, in line order, at most ${MAX_REPORTED}; empty when the file can be imported.`),
    errorsTotal: z.int().describe('How many problems there are in all.'),
    errorGroups: z.array(CatalogErrorGroupSchema).describe('Every problem grouped by column and kind, the largest group first: what to correct, in a few lines.'),
    warnings: z
      .array(CatalogFileWarningSchema)
      .describe(`What looks wrong but imports as written (never blocking), at most ${MAX_REPORTED}: a barcode with a wrong GS1 check digit or whose leading zeros a spreadsheet dropped, text decoded in the wrong character set or with letters replaced by "?", a margin ((price - costPrice) / price) outside the category's \`marginMinPercent\`..\`marginMaxPercent\`.`),
    warningsTotal: z.int().describe('How many warnings there are in all.'),
    warningGroups: z.array(CatalogErrorGroupSchema).describe('Every warning grouped by column and kind, the largest group first.'),
    warningsFixable: z.int().describe('How many warnings suggest a barcode (`suggested`), which `?fixBarcodes=true` writes instead.'),
    barcodesFixed: z.int().describe('How many barcodes `?fixBarcodes=true` replaced by the suggested code (0 without it).'),
    changes: z.array(CatalogFileChangeSchema).describe(`What the rows that update a product change, field by field, in line order: the first ${MAX_REPORTED}.`),
    changesTotal: z.int().describe('How many field changes there are in all.'),
    header: z
      .array(CatalogHeaderColumnSchema)
      .describe('Each column of the header row and the field it is read as (columns with neither header nor values left out): what a page shows to map the file\'s columns.'),
    preview: z.array(CatalogPreviewRowSchema).describe(`The first ${PREVIEW_ROWS} rows after the header, as text, whatever their problems.`),
  })
  .meta({ id: 'CatalogImportResult' });

/** A file with problems, not imported: the spec's standard error shape, with the check's report beside it. */
export const CatalogImportRefusalSchema = StandardErrorSchema.extend({ data: CatalogImportResultSchema }).meta({ id: 'CatalogImportRefusal' });

export type CatalogImportQuery = z.infer<typeof CatalogImportQuerySchema>;
export type CatalogColumnMap = z.infer<typeof CatalogColumnMapSchema>;
export type CatalogFileChange = z.infer<typeof CatalogFileChangeSchema>;
export type CatalogFileError = z.infer<typeof CatalogFileErrorSchema>;
export type CatalogFileWarning = z.infer<typeof CatalogFileWarningSchema>;
export type CatalogHeaderColumn = z.infer<typeof CatalogHeaderColumnSchema>;
export type CatalogPreviewRow = z.infer<typeof CatalogPreviewRowSchema>;
export type CatalogImportResult = z.infer<typeof CatalogImportResultSchema>;
