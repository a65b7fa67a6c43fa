import type { CatalogColumn } from '../../shared/api/catalog.js';
import { TAX_CATEGORIES } from '../../shared/tax.js';
import { normalizeCode } from '../services/products.js';
import type { ProductRecord } from '../storage/products.js';

/** A cell read as a product field's value, or why it cannot be. */
export type CellValue = { value: unknown } | { problem: string };

type Kind = 'text' | 'francs' | 'boolean' | 'integer' | 'date' | 'tax' | 'reference';

/** How each column's cells are read and written. References (category, supplier) are resolved by the caller. */
const KINDS: Record<CatalogColumn, Kind> = {
  externalId: 'text',
  barcode: 'text',
  name: 'text',
  price: 'francs',
  taxCategory: 'tax',
  category: 'reference',
  supplier: 'reference',
  depositProduct: 'francs',
  depositProductLabel: 'text',
  salePrice: 'francs',
  salePriceDateFrom: 'date',
  salePriceDateTo: 'date',
  costPrice: 'francs',
  ageRestriction: 'boolean',
  minimumAge: 'integer',
  showOnScreen: 'boolean',
  showOnScale: 'boolean',
  saleStop: 'boolean',
  deactivated: 'boolean',
  openInput: 'boolean',
  index: 'integer',
  description: 'text',
  declarations: 'text',
  imageUrl: 'text',
};

const TRUE_WORDS = new Set(['true', '1', 'yes', 'ja', 'oui', 'si', 'x']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'nein', 'non']);

/** Francs with at most two decimals, a point or a comma, and Swiss thousands marks ("1'234.50"). */
const FRANCS = /^(\d+)(?:[.,](\d{1,2}))?$/;

/** What Excel shows for a long number in a column not formatted as text: the digits are lost. */
const SHORTENED_NUMBER = /^\d+([.,]\d+)?e\+\d+$/i;

function readFrancs(cell: string): CellValue {
  const text = cell.replace(/^chf\s*/i, '').replace(/['’\s]/g, '');
  if (text.startsWith('-')) return { problem: `${JSON.stringify(cell)} is negative; a price is 0 or more francs` };
  const match = FRANCS.exec(text);
  if (!match) return { problem: `${JSON.stringify(cell)} is not an amount in francs; write it as on a receipt, e.g. 1.95 or 1,95` };
  return { value: Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) };
}

function readTax(cell: string): CellValue {
  const text = cell.replace('%', '').replace(',', '.').trim();
  const number = Number(text);
  const found = Number.isFinite(number) && text !== '' ? TAX_CATEGORIES.find((code) => Number(code) === number) : undefined;
  if (found === undefined) return { problem: `${JSON.stringify(cell)} is not a tax category; use ${TAX_CATEGORIES.join(', ')}` };
  return { value: found };
}

function readDate(cell: string): CellValue {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(cell) ? new Date(`${cell}T00:00:00.000Z`) : new Date(cell);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(cell)) {
    return { problem: `${JSON.stringify(cell)} is not a date; write it as 2026-11-30 or 2026-11-30T23:59:59Z` };
  }
  return { value: date.toISOString() };
}

/**
 * The value of a non-empty cell of `column`. An empty cell is never read: it
 * leaves the field as it is.
 */
export function readCell(column: CatalogColumn, raw: string): CellValue {
  const cell = raw.trim();
  switch (KINDS[column]) {
    case 'text':
      if (column === 'barcode' && SHORTENED_NUMBER.test(cell)) {
        return { problem: `${JSON.stringify(cell)} is a barcode the spreadsheet shortened to a number; format the column as text and enter the whole code` };
      }
      return { value: unguarded(cell) };
    case 'reference':
      return { value: unguarded(cell) };
    case 'francs':
      return readFrancs(cell);
    case 'tax':
      return readTax(cell);
    case 'date':
      return readDate(cell);
    case 'boolean': {
      const word = cell.toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: true };
      if (FALSE_WORDS.has(word)) return { value: false };
      return { problem: `${JSON.stringify(cell)} is neither true nor false (also 1/0, yes/no, ja/nein, oui/non)` };
    }
    case 'integer':
      return /^-?\d+$/.test(cell) ? { value: Number(cell) } : { problem: `${JSON.stringify(cell)} is not a whole number` };
  }
}

const francs = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * Text a spreadsheet would run as a formula when the file is opened (`=`, `+`,
 * `-`, `@`, or a tab or carriage return before them): a product name such as
 * `=HYPERLINK(...)` must reach staff as text, not as a link or a command.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
/**
 * A leading apostrophe is how spreadsheets mark a cell as text; they show the
 * cell without it. Text that already starts with apostrophes before a formula
 * sign gets one more, so that taking one off on import gives it back as it was.
 */
const TEXT_MARK = "'";

/** A text cell as an export writes it: marked as text when a spreadsheet would take it for a formula. */
export function guardedText(text: string): string {
  return FORMULA_START.test(text) ? TEXT_MARK + text : text;
}

/** A text cell as an import reads it: the export's text mark taken off again, so a file round-trips. */
function unguarded(cell: string): string {
  return cell.startsWith(TEXT_MARK) && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}

/** The cell an export writes for a product's field; references are written by the caller. */
export function writeCell(column: CatalogColumn, product: ProductRecord): string {
  const value = product[column];
  if (value === undefined || value === null) return '';
  if (KINDS[column] === 'francs') return francs(value as number);
  if (KINDS[column] === 'boolean') return value ? 'true' : 'false';
  if (KINDS[column] === 'text') return guardedText(String(value));
  return String(value);
}

/**
 * Whether a field read from a file equals the stored one: an absent boolean
 * is false; a barcode is compared as codes are matched (a product created
 * without one has its id, in the id's own letters).
 */
export function sameValue(column: CatalogColumn, stored: unknown, read: unknown): boolean {
  if (KINDS[column] === 'boolean') return (stored === true) === (read === true);
  if (column === 'barcode' && typeof stored === 'string') return normalizeCode(stored) === read;
  return stored === read;
}
