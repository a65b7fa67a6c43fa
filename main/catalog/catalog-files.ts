import { stringify } from 'csv-stringify/sync';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CATALOG_COLUMNS, type CatalogColumnMap, type CatalogImportResult } from '../../shared/api/catalog.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import type { Services } from '../services/index.js';
import { BadRequest, Conflict, NotFound } from '../services/errors.js';
import type { ProductService, WrittenProduct } from '../services/products.js';
import type { CatalogColumnStore } from '../storage/catalog-columns.js';
import type { CategoryStore } from '../storage/categories.js';
import type { Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import type { ProductStore } from '../storage/products.js';
import { runInSlices } from '../storage/run-in-slices.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { buildCatalogIndex, type CatalogIndex } from './catalog-index.js';
import { guardedText, writeCell } from './cells.js';
import { createCheckReport } from './check-report.js';
import { CsvSyntaxError, decodeFile, detectSeparator, parseRecords, type FileRecord } from './csv-text.js';
import { fileKindOf, wrongKindMessage } from './file-kinds.js';
import { mappingOf } from './header-columns.js';
import { checkCatalogFile, type PlannedWrite } from './import-check.js';
import { readWorkbook, WorkbookUnreadable, writeWorkbook } from './workbook.js';

/** Products written to the export per turn of the event loop. */
const ROWS_PER_TURN = 500;
/** Products written (or announced to the search index) per batch while an import writes; batches go on for `WRITE_SLICE_MS` per turn. */
const WRITE_BATCH = 25;
const WRITE_SLICE_MS = 4;

/** Excel reads a CSV file as UTF-8 only when it starts with a byte order mark. */
const BOM = '\uFEFF';
/** Excel in Switzerland splits a CSV file into columns at `;` (the list separator of de-CH, fr-CH and it-CH), not at `,`. */
const SEPARATOR = ';';
/**
 * A barcode of digits only is written `="0761234567890"`: Excel and
 * LibreOffice then show it as the text it is, instead of a number that
 * drops its leading zeros or shows as 7.61E+12; the import reads it back.
 */
const asTextFormula = (code: string) => (/^\d+$/.test(code) ? `="${code}"` : code);

/** How a file arrives: a CSV text file, or an Excel workbook. */
export type FileFormat = 'csv' | 'xlsx';

export interface ImportOptions {
  dryRun: boolean;
  format: FileFormat;
  /** The file's headers mapped for this import; wins over the organization's kept mapping. */
  columns?: CatalogColumnMap | undefined;
  /** Suggested barcodes (a dropped leading zero, a product's code one slip away) replace the cells'. */
  fixBarcodes?: boolean | undefined;
}

export interface ImportOutcome {
  result: CatalogImportResult;
  /** Whether the products were written (false for a dry run, or when the file has errors). */
  written: boolean;
}

/** The cells of a product as an export writes them: references by name when the name is unique, otherwise by id. */
function productCells(product: Record<string, unknown>, index: CatalogIndex): string[] {
  return CATALOG_COLUMNS.map((column) => {
    if (column !== 'category' && column !== 'supplier') return writeCell(column, product as never);
    const id = product[column];
    if (typeof id !== 'string' || id === '') return '';
    return guardedText((column === 'category' ? index.categories : index.suppliers).cellOf(id));
  });
}

/**
 * Catalog files in and out: a CSV file of products checked and imported all
 * or nothing, and the catalog exported in the same columns. Imports run one
 * at a time; the check, the search index's update and the export go a slice
 * at a time, so the server keeps answering while a large file is handled.
 */
export function createCatalogFiles(deps: {
  db: Db;
  products: ProductService;
  productStore: ProductStore;
  categories: CategoryStore;
  suppliers: SupplierStore;
  columnMaps: CatalogColumnStore;
  clock: Clock;
  /** The server's group commit: an import's write is spread over turns of the event loop in one held group. Without it (the CLI), one transaction. */
  groups?: Pick<GroupCommit, 'hold' | 'afterCommit'> | undefined;
}) {
  const indexOf = (orgId: string) => buildCatalogIndex({ products: deps.productStore, categories: deps.categories, suppliers: deps.suppliers }, orgId);
  let running: Promise<unknown> = Promise.resolve();

  const announce = async (orgId: string, written: WrittenProduct[]) => {
    for (let at = 0; at < written.length; await nextTurn()) {
      const ends = performance.now() + WRITE_SLICE_MS;
      for (; at < written.length && performance.now() < ends; at += WRITE_BATCH) deps.products.announce(orgId, written.slice(at, at + WRITE_BATCH));
    }
  };

  /**
   * Writes every product in one transaction. On the server it runs a few
   * milliseconds at a time inside a held group of writes, so that a scanner's
   * lookups are answered meanwhile; the group commits (or rolls back) whole.
   * Resolves once the write is on disk.
   */
  const writeAll = (caller: Caller, writes: PlannedWrite[]): Promise<WrittenProduct[]> =>
    runInSlices(deps.db, deps.groups, function* () {
      const written: WrittenProduct[] = [];
      for (let at = 0; at < writes.length; at += WRITE_BATCH) {
        written.push(...deps.products.writeMany(caller, writes.slice(at, at + WRITE_BATCH)));
        yield;
      }
      return written;
    });

  const importNow = async (caller: Caller, bytes: Buffer, options: ImportOptions): Promise<ImportOutcome> => {
    let records: FileRecord[];
    try {
      records = await readRecords(bytes, options.format);
    } catch (err) {
      if (!(err instanceof CsvSyntaxError)) throw err;
      const report = createCheckReport();
      report.error(err.problem);
      return { result: report.result(), written: false };
    }
    const mapping = mappingOf(deps.columnMaps.get(caller.orgId), options.columns);
    const checked = await checkCatalogFile(records, await indexOf(caller.orgId), { mapping, fixBarcodes: options.fixBarcodes ?? false });
    if (options.dryRun || checked.result.errorsTotal > 0) return { result: checked.result, written: false };
    deps.products.prepareForMany(caller.orgId);
    let written: WrittenProduct[];
    try {
      written = await writeAll(caller, checked.writes);
    } catch (err) {
      if (err instanceof NotFound) throw new Conflict('A product of the file was deleted while the file was imported; nothing was written. Check the file again.');
      throw err;
    }
    await announce(caller.orgId, written);
    return { result: checked.result, written: true };
  };

  /** The export's rows, a slice of products per turn of the event loop. */
  const exportRows = async (orgId: string): Promise<string[][]> => {
    const index = await indexOf(orgId);
    const products = [...index.products.values()];
    const rows: string[][] = [];
    for (let at = 0; at < products.length; at += ROWS_PER_TURN) {
      rows.push(...products.slice(at, at + ROWS_PER_TURN).map((product) => productCells(product, index)));
      await nextTurn();
    }
    return rows;
  };

  return {
    /** Checks a file (`dryRun`), or checks and imports it; a file with errors writes nothing. */
    importFile(caller: Caller, bytes: Buffer, options: ImportOptions): Promise<ImportOutcome> {
      const next = running.then(() => importNow(caller, bytes, options));
      running = next.catch(() => undefined);
      return next;
    },

    /**
     * The organization's active products as a CSV file, in id order: UTF-8
     * with a byte order mark, `;`-separated, CRLF line ends, as Excel in
     * Switzerland opens it into columns.
     */
    async exportFile(caller: Caller): Promise<string> {
      const rows = await exportRows(caller.orgId);
      const barcodeAt = CATALOG_COLUMNS.indexOf('barcode');
      // The text formula must reach the spreadsheet unquoted: quoted, it would be read as the text `="…"`.
      const options = {
        delimiter: SEPARATOR,
        record_delimiter: 'windows',
        cast: { string: (cell: string, context: { index: number }) => (context.index === barcodeAt && cell !== asTextFormula(cell) ? { value: asTextFormula(cell), quote: '' } : cell) },
      } as const;
      const parts = [BOM + stringify([[...CATALOG_COLUMNS]], { delimiter: SEPARATOR, record_delimiter: 'windows' })];
      for (let at = 0; at < rows.length; at += ROWS_PER_TURN) {
        parts.push(stringify(rows.slice(at, at + ROWS_PER_TURN), options));
        await nextTurn();
      }
      return parts.join('');
    },

    /** The same products and columns as an Excel workbook whose barcodes are text cells. */
    async exportWorkbook(caller: Caller): Promise<Buffer> {
      return writeWorkbook(CATALOG_COLUMNS, await exportRows(caller.orgId));
    },

    /** The organization's kept mapping of its files' headers to product fields. */
    columns: (caller: Caller): CatalogColumnMap => deps.columnMaps.get(caller.orgId),

    /** Keeps a mapping of headers to product fields for the organization's next imports, replacing the one kept before. */
    keepColumns(caller: Caller, columns: CatalogColumnMap): CatalogColumnMap {
      deps.columnMaps.set(caller.orgId, columns, deps.clock.now().toISOString());
      return deps.columnMaps.get(caller.orgId);
    },
  };
}

/**
 * The records of a file as it was sent: a workbook or a CSV text file. A
 * file that is not what it was sent as (a workbook renamed .csv, an
 * OpenDocument file, an old .xls), or a workbook that cannot be read, is
 * refused (400) with what it is and what to do.
 */
async function readRecords(bytes: Buffer, format: FileFormat): Promise<FileRecord[]> {
  const wrongKind = wrongKindMessage(fileKindOf(bytes), format);
  if (wrongKind !== undefined) throw new BadRequest(wrongKind);
  if (format === 'xlsx') {
    try {
      return await readWorkbook(bytes);
    } catch (err) {
      if (err instanceof WorkbookUnreadable) throw new BadRequest(err.message);
      throw err;
    }
  }
  const { text } = await decodeFile(bytes);
  return parseRecords(text, detectSeparator(text));
}

export type CatalogFiles = ReturnType<typeof createCatalogFiles>;

/** Catalog files over the services of one database (the server's, or the CLI's). */
export const catalogFilesOf = (services: Services, db: Db, groups?: GroupCommit): CatalogFiles =>
  createCatalogFiles({
    db,
    products: services.products,
    productStore: services.stores.products,
    categories: services.stores.categories,
    suppliers: services.stores.suppliers,
    columnMaps: services.stores.catalogColumns,
    clock: services.clock,
    groups,
  });
