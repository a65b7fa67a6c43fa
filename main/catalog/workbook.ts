import writeXlsxFile, { type Cell } from 'write-excel-file/node';
import { MAX_WORKBOOK_UNPACKED_BYTES, type CatalogColumn } from '../../shared/api/catalog.js';
import type { FileRecord } from './csv-text.js';
import { readFirstSheet, type CellValue } from './workbook-reader.js';
import { checkUnpackedSize, ZipRefused } from './zip-limits.js';

/** The workbook could not be read; the message says why and what to do. */
export class WorkbookUnreadable extends Error {}

/** A cell of a workbook as the text a CSV file would hold for it. */
function cellText(value: CellValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  return String(value);
}

/**
 * The records of a workbook's first sheet, its first row the header, as a
 * CSV file's would be. The unpacked size is checked first (a zip bomb is
 * refused before it is unpacked).
 */
export async function readWorkbook(bytes: Buffer): Promise<FileRecord[]> {
  try {
    await checkUnpackedSize(bytes, MAX_WORKBOOK_UNPACKED_BYTES);
  } catch (err) {
    if (err instanceof ZipRefused) throw new WorkbookUnreadable(`The workbook cannot be read: ${err.message}`);
    throw err;
  }
  const records: FileRecord[] = [];
  let width: number;
  try {
    width = await readFirstSheet(bytes, (line, values) => records.push({ line, cells: values.map(cellText) }));
  } catch (err) {
    throw new WorkbookUnreadable(`The workbook cannot be read (${(err as Error).message}); open it in Excel, save it again as "Excel Workbook (.xlsx)" and send that`);
  }
  // A row is as wide as the sheet, as a CSV file's lines are: its cells after its last value are empty.
  for (const record of records) while (record.cells.length < width) record.cells.push('');
  return records;
}

/** Columns a workbook holds as numbers: money (francs) and whole numbers. The rest are text cells, so that barcodes keep every digit. */
const NUMBER_FORMATS: Partial<Record<CatalogColumn, string>> = {
  price: '0.00',
  depositProduct: '0.00',
  salePrice: '0.00',
  costPrice: '0.00',
  minimumAge: '0',
  index: '0',
};

/** A workbook of one sheet, "Produkte", holding the header and rows an export writes. Numbers are written as numbers, all else as text cells (`@`). */
export async function writeWorkbook(columns: readonly CatalogColumn[], rows: string[][]): Promise<Buffer> {
  const header: Cell[] = columns.map((column) => ({ value: column, type: String, fontWeight: 'bold' }));
  const body = rows.map((row) =>
    row.map((text, i): Cell => {
      const format = NUMBER_FORMATS[columns[i]!];
      if (text === '') return null;
      return format ? { value: Number(text), type: Number, format } : { value: text, type: String, format: '@' };
    }),
  );
  return writeXlsxFile([header, ...body], { sheet: 'Produkte', stickyRowsCount: 1 }).toBuffer();
}
