import { parse, type Parser } from 'csv-parse';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CatalogFileError } from '../../shared/api/catalog.js';
import { decodeWindows1252 } from './code-pages.js';
import { fileProblem, ruledProblem } from './file-problems.js';

/** The character sets a catalog file is read in. */
export type FileEncoding = 'utf-8' | 'windows-1252';

/** A record of the file with its line: the header is line 1, as a spreadsheet numbers its rows. */
export interface FileRecord {
  line: number;
  cells: string[];
}

/** The file could not be read as CSV from `line` on (a quote never closed): `problem` says why, as a check's report lists it. */
export class CsvSyntaxError extends Error {
  constructor(readonly problem: CatalogFileError) {
    super(problem.message);
  }
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16_BOMS = [Buffer.from([0xff, 0xfe]), Buffer.from([0xfe, 0xff])];

/** Bytes decoded per turn of the event loop: a 20 MB file is decoded in slices of a few milliseconds. */
const DECODE_BYTES = 256 * 1024;

/**
 * The file's text: UTF-8 when its bytes are valid UTF-8 (with or without a
 * BOM), otherwise Windows-1252, which Excel writes in Western Europe (every
 * byte is a character there, so nothing fails to decode).
 */
export async function decodeFile(bytes: Buffer): Promise<{ text: string; encoding: FileEncoding }> {
  if (UTF16_BOMS.some((bom) => bytes.subarray(0, 2).equals(bom))) {
    throw new CsvSyntaxError(fileProblem(1, null, { kind: 'file-utf16', params: {} }));
  }
  const body = bytes.subarray(0, 3).equals(UTF8_BOM) ? bytes.subarray(3) : bytes;
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  try {
    for (let at = 0; at < body.length; at += DECODE_BYTES) {
      parts.push(utf8.decode(body.subarray(at, at + DECODE_BYTES), { stream: at + DECODE_BYTES < body.length }));
      await nextTurn();
    }
    return { text: parts.join(''), encoding: 'utf-8' };
  } catch {
    // One byte is one character in Windows-1252: the slices may end anywhere.
    parts.length = 0;
    for (let at = 0; at < bytes.length; at += DECODE_BYTES) {
      parts.push(decodeWindows1252(bytes.subarray(at, at + DECODE_BYTES)));
      await nextTurn();
    }
    return { text: parts.join(''), encoding: 'windows-1252' };
  }
}

/** `;` when the header row has more semicolons than commas outside quotes (Excel in Switzerland), otherwise `,`. */
export function detectSeparator(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** Text fed to the parser per turn of the event loop: a 20 MB file never holds the server for long. */
const CHUNK_CHARS = 16 * 1024;

/**
 * Every record of the text, parsed by csv-parse a chunk at a time with a turn
 * of the event loop between chunks. Records keep their own number of cells
 * (the caller compares them with the header); lines with nothing but
 * separators are left out, as spreadsheets append them. A quote inside a
 * cell that does not start with one is the cell's own (`Apfelwein "Spezial"`,
 * or the `="0761234567890"` an export writes for a barcode).
 */
export async function parseRecords(text: string, separator: string): Promise<FileRecord[]> {
  const records: FileRecord[] = [];
  const parser: Parser = parse({ delimiter: separator, relax_column_count: true, relax_quotes: true, info: true, skip_records_with_empty_values: false });
  let failure: unknown;
  parser.on('readable', () => {
    let item: { record: string[]; info: { records: number } } | null;
    while ((item = parser.read() as typeof item) !== null) {
      if (item.record.every((cell) => cell.trim() === '')) continue;
      records.push({ line: item.info.records, cells: item.record });
    }
  });
  parser.on('error', (err) => (failure ??= err));
  for (let at = 0; at < text.length && failure === undefined; at += CHUNK_CHARS) {
    parser.write(text.slice(at, at + CHUNK_CHARS));
    await nextTurn();
  }
  if (failure === undefined) {
    await new Promise<void>((resolve) => {
      parser.once('end', resolve);
      parser.once('error', () => resolve());
      parser.end();
    });
  }
  if (failure !== undefined) throw syntaxError(failure, records);
  return records;
}

function syntaxError(err: unknown, records: FileRecord[]): CsvSyntaxError {
  const line = (err as { records?: number }).records;
  const at = typeof line === 'number' ? line + 1 : (records.at(-1)?.line ?? 0) + 1;
  const code = (err as { code?: string }).code;
  if (code === 'CSV_QUOTE_NOT_CLOSED') return new CsvSyntaxError(fileProblem(at, null, { kind: 'quote-not-closed', params: {} }));
  if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'INVALID_OPENING_QUOTE') return new CsvSyntaxError(fileProblem(at, null, { kind: 'quote-in-cell', params: {} }));
  return new CsvSyntaxError(ruledProblem(at, null, 'other', `The file cannot be read from here on: ${(err as Error).message}`));
}
