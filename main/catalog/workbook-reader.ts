import { posix } from 'node:path';
import { dateStyleReader } from './date-formats.js';
import { readXmlEntry } from './xml-entry.js';
import { zipDirectory, type ZipEntry } from './zip-directory.js';

/** A cell's value as the sheet holds it; empty cells are null. */
export type CellValue = string | number | boolean | Date | null;

const RELATIONSHIPS = /\/(worksheet|sharedStrings|styles)$/;
/** Days from Excel's day 0 (in its 1900 system, which counts 29 February 1900) to 1970-01-01; the 1904 system starts 1462 days later. */
const UNIX_EPOCH_SERIAL = 25_569;
const EPOCH_1904_DAYS = 1_462;
const DAY_MS = 86_400_000;
/** Column XFD, the last a sheet has: a reference past it would have the row padded with millions of empty cells. */
const LAST_COLUMN = 16_384;
/**
 * Cells a sheet's rows may hold once padded to its width (20,000 rows of 250
 * columns): a few values far apart in a sheet would otherwise become millions
 * of empty cells.
 */
const MAX_CELLS = 5_000_000;

/** Characters XML cannot hold are written `_xHHHH_` in a workbook's text (and `_x005F_` is a literal `_`). */
const unescapeText = (text: string) => (text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text);

/** Text as a cell value: trimmed, and empty text is an empty cell. */
function textValue(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** The id of a relationship (`r:id`, whatever the prefix of its namespace). */
const relationId = (attributes: Record<string, string>) => Object.entries(attributes).find(([name]) => name === 'id' || name.endsWith(':id'))?.[1];

/** A part's path from a relationship's target: relative to xl/, or absolute from the archive's root. */
const partPath = (target: string) => (target.startsWith('/') ? target.slice(1) : posix.join('xl', target));

/** The workbook's first sheet in its own order (not the order of the files in the archive), and its date system. */
async function firstSheet(part: ZipEntry): Promise<{ id: string | undefined; epoch1904: boolean }> {
  let id: string | undefined;
  let seen = false;
  let epoch1904 = false;
  await readXmlEntry(part, {
    open(name, attributes) {
      if (name === 'workbookPr') epoch1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      else if (name === 'sheet' && !seen) {
        seen = true;
        id = relationId(attributes);
      }
    },
    close() {},
    text() {},
  });
  if (!seen) throw new Error('it holds no sheet');
  return { id, epoch1904 };
}

/** The workbook's parts by relationship: its sheets by id, its shared strings and its styles. */
async function relationships(part: ZipEntry | undefined) {
  const sheets = new Map<string, string>();
  const parts = { sharedStrings: 'xl/sharedStrings.xml', styles: 'xl/styles.xml' };
  if (!part) return { sheets, ...parts };
  await readXmlEntry(part, {
    open(name, attributes) {
      const kind = name === 'Relationship' ? RELATIONSHIPS.exec(attributes.Type ?? '')?.[1] : undefined;
      if (kind === undefined || attributes.Target === undefined) return;
      if (kind === 'worksheet') sheets.set(attributes.Id ?? '', partPath(attributes.Target));
      else parts[kind as keyof typeof parts] = partPath(attributes.Target);
    },
    close() {},
    text() {},
  });
  return { sheets, ...parts };
}

/** The shared strings table: each `<si>` is a `<t>`, or rich text runs `<r><t>` joined; phonetic runs (`<rPh>`) are not part of the text. */
async function sharedStrings(part: ZipEntry | undefined): Promise<string[]> {
  const strings: string[] = [];
  if (!part) return strings;
  let current: string | undefined;
  let inText = false;
  let phonetic = 0;
  await readXmlEntry(part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && current !== undefined && phonetic === 0) inText = true;
    },
    close(name) {
      if (name === 'si' && current !== undefined) {
        strings.push(unescapeText(current));
        current = undefined;
      } else if (name === 'rPh') phonetic -= 1;
      else if (name === 't') inText = false;
    },
    text(text) {
      if (inText && current !== undefined) current += text;
    },
  });
  return strings;
}

/** The column of a reference such as `AB12` (1 for A); 0 when it names none. */
function columnOf(ref: string): number {
  let column = 0;
  for (let at = 0; at < ref.length; at += 1) {
    const code = ref.charCodeAt(at) & ~0x20;
    if (code < 65 || code > 90) break;
    column = column * 26 + code - 64;
  }
  return column;
}

/** What a cell's value is read with: the shared strings, the styles that show a date, and the day 1970-01-01 is in the workbook's date system. */
interface CellContext {
  strings: string[];
  dateStyles: Set<number>;
  epochSerial: number;
}

/** A cell's value from its type (`t`), style (`s`), `<v>` text and inline string; throws for a value its type cannot hold. */
function cellValue(ref: string, type: string, style: string | undefined, v: string | undefined, inline: string | undefined, context: CellContext): CellValue {
  switch (type) {
    case 'n': {
      if (!v) return null;
      const number = Number(v);
      if (Number.isNaN(number)) throw new Error(`cell ${ref} holds "${v}" where a number belongs`);
      return style !== undefined && context.dateStyles.has(Number(style)) ? new Date(Math.floor((number - context.epochSerial) * DAY_MS)) : number;
    }
    case 's': {
      if (!v) return null;
      const text = context.strings[Number(v)];
      if (text === undefined) throw new Error(`cell ${ref} refers to a text the workbook does not hold`);
      return textValue(text);
    }
    case 'str':
      return v ? textValue(unescapeText(v)) : null;
    case 'inlineStr':
      return inline === undefined ? null : textValue(unescapeText(inline));
    case 'b':
      if (!v) return null;
      if (v === '1' || v === '0') return v === '1';
      throw new Error(`cell ${ref} holds "${v}" where TRUE or FALSE belongs`);
    case 'd': {
      if (!v) return null;
      const date = new Date(v);
      if (Number.isNaN(date.getTime())) throw new Error(`cell ${ref} holds "${v}" where a date belongs`);
      return date;
    }
    case 'e':
      return null;
    default:
      throw new Error(`cell ${ref} is of a kind this server does not read ("${type}")`);
  }
}

/**
 * The rows of a workbook's first sheet, each given to `row` with its row
 * number as it is read; a row without a value is skipped. Cells are placed
 * by their reference (a gap is an empty cell). Numbers shown with a date
 * format are dates. Resolves with the sheet's width: the last column that
 * holds a value in any row.
 */
export async function readFirstSheet(bytes: Buffer, row: (line: number, cells: CellValue[]) => void): Promise<number> {
  const entries = new Map(zipDirectory(bytes).map((entry) => [entry.name, entry]));
  const workbook = entries.get('xl/workbook.xml');
  if (!workbook) throw new Error('it has no xl/workbook.xml, the list of its sheets');
  const { id, epoch1904 } = await firstSheet(workbook);
  const paths = await relationships(entries.get('xl/_rels/workbook.xml.rels'));
  const sheetPath = id === undefined ? undefined : paths.sheets.get(id);
  const sheet = sheetPath === undefined ? undefined : entries.get(sheetPath);
  if (!sheet) throw new Error(`its first sheet${sheetPath ? ` (${sheetPath})` : ''} is missing`);
  const styles = dateStyleReader();
  const stylesPart = entries.get(paths.styles);
  if (stylesPart) await readXmlEntry(stylesPart, styles);
  const dateStyles = styles.dateStyles();
  const strings = await sharedStrings(entries.get(paths.sharedStrings));
  const context: CellContext = { strings, dateStyles, epochSerial: UNIX_EPOCH_SERIAL - (epoch1904 ? EPOCH_1904_DAYS : 0) };

  let width = 0;
  let rowsWithValues = 0;
  let inSheet = false;
  let lastRow = 0;
  let rowNumber = 0;
  let cells: CellValue[] = [];
  let filled = false;
  let lastColumn = 0;
  let cell: { ref: string; column: number; type: string; style: string | undefined } | undefined;
  let v: string | undefined;
  let inline: string | undefined;
  let inValue = false;
  let inText = false;
  let phonetic = 0;

  await readXmlEntry(sheet, {
    open(name, attributes) {
      if (name === 'sheetData') inSheet = true;
      if (!inSheet) return;
      if (name === 'row') {
        rowNumber = Number(attributes.r) || lastRow + 1;
        if (rowNumber <= lastRow) throw new Error(`row ${rowNumber} comes after row ${lastRow}`);
        cells = [];
        filled = false;
        lastColumn = 0;
      } else if (name === 'c') {
        const ref = attributes.r ?? '';
        const column = columnOf(ref) || lastColumn + 1;
        if (column <= lastColumn) throw new Error(`cell ${ref} comes after a cell to its right`);
        if (column > LAST_COLUMN) throw new Error(`cell ${ref} is past the last column a sheet has (XFD)`);
        cell = { ref: ref || `column ${column} of row ${rowNumber}`, column, type: attributes.t || 'n', style: attributes.s };
        v = undefined;
        inline = undefined;
      } else if (cell && name === 'v') {
        inValue = true;
        v = '';
      } else if (cell && name === 'is') inline = '';
      else if (cell && name === 'rPh') phonetic += 1;
      else if (cell && name === 't' && inline !== undefined && phonetic === 0) inText = true;
    },
    close(name) {
      if (name === 'sheetData') inSheet = false;
      else if (name === 'v') inValue = false;
      else if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'c' && cell) {
        const value = cellValue(cell.ref, cell.type, cell.style, v, inline, context);
        lastColumn = cell.column;
        if (value !== null) {
          while (cells.length < cell.column - 1) cells.push(null);
          cells.push(value);
          filled = true;
          if (cell.column > width) width = cell.column;
        }
        cell = undefined;
      } else if (name === 'row' && inSheet) {
        if (filled) {
          rowsWithValues += 1;
          if (rowsWithValues * width > MAX_CELLS) {
            throw new Error(
              `its first sheet reaches column ${width} over more than ${rowsWithValues - 1} rows, more than the ${MAX_CELLS.toLocaleString('en-US')} cells an import reads; delete the columns and rows that are not part of the catalog`,
            );
          }
          row(rowNumber, cells);
        }
        lastRow = rowNumber;
      }
    },
    text(text) {
      if (inValue) v += text;
      else if (inText) inline += text;
    },
  });
  return width;
}
