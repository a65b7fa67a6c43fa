import type { CatalogColumn } from '../../shared/api/catalog.js';
import { TAX_CATEGORIES } from '../../shared/tax.js';
import { normalizeCode } from '../services/products.js';
import type { ProductRecord } from '../storage/products.js';
import type { Finding } from './file-problems.js';

/** A cell read as a product field's value, or why it cannot be. */
export type CellValue = { value: unknown } | { problem: Finding };

type Kind = 'text' | 'francs' | 'boolean' | 'integer' | 'date' | 'tax' | 'reference';

/** How each column's cells are read and written. References (category, supplier) are resolved by the caller. */
const KINDS: Record<CatalogColumn, Kind> = {
  id: 'text',
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

/** Booleans as a Swiss shop's spreadsheet writes them, in English, German, French and Italian (accents ignored: "sì" is "si"). */
const TRUE_WORDS = new Set(['true', '1', 'yes', 'y', 'x', 'ja', 'j', 'wahr', 'oui', 'vrai', 'si', 'vero']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'n', 'nein', 'falsch', 'non', 'faux', 'falso']);

/** "Fr.", "Fr", "CHF" or "SFr." before or after the amount. */
const CURRENCY = /^(?:chf|sfr\.?|fr\.?)\s*|\s*(?:chf|sfr\.?|fr\.?)$/gi;
/** Whole francs written "4.–" or "4.-" (a dash for no rappen). */
const WHOLE_FRANCS = /[.,][–—-]$/;
/** Francs with at most two decimals after a point or a comma. */
const FRANCS = /^(\d+)(?:[.,](\d{1,2}))?$/;
/** Thousands marked with "'" (Swiss), a space, "." before a decimal comma ("1.234,50") or "," before a decimal point ("1,234.50"). */
const THOUSANDS = /^\d{1,3}(?:([.,'’ \u00a0\u202f])\d{3})+([.,]\d{1,2})?$/;

/** `="0761234567890"`: how an export writes a barcode of digits so that a spreadsheet keeps it as text. */
const TEXT_FORMULA = /^="(\d+)"$/;

/** What Excel shows for a long number in a column not formatted as text: the digits are lost. */
const SHORTENED_NUMBER = /^\d+([.,]\d+)?e\+\d+$/i;

const wordKey = (cell: string) => cell.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The amount without its thousands marks, or undefined when they are not
 * one mark grouping by three. A point or a comma counts as a thousands mark
 * only before a decimal part written with the other one: "1.234" alone may
 * be a price of three decimals, and is refused rather than read as 1234.
 */
function withoutThousands(text: string): string | undefined {
  const match = THOUSANDS.exec(text);
  if (!match) return undefined;
  const [, mark, decimals] = match as unknown as [string, string, string | undefined];
  if ((mark === '.' || mark === ',') && (decimals === undefined || decimals.startsWith(mark))) return undefined;
  const whole = text.slice(0, text.length - (decimals?.length ?? 0));
  if (whole.split(mark).some((part, i) => !/^\d+$/.test(part) || (i > 0 && part.length !== 3))) return undefined;
  return whole.split(mark).join('') + (decimals ?? '');
}

function readFrancs(cell: string): CellValue {
  let text = cell.replace(CURRENCY, '').trim();
  if (text.startsWith('-')) return { problem: { kind: 'francs-negative', params: { value: cell } } };
  text = text.replace(WHOLE_FRANCS, '');
  const plain = FRANCS.test(text) ? text : withoutThousands(text);
  const match = plain === undefined ? null : FRANCS.exec(plain);
  if (!match) return { problem: { kind: 'francs-invalid', params: { value: cell } } };
  return { value: Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) };
}

function readTax(cell: string): CellValue {
  const text = cell.replace('%', '').replace(',', '.').trim();
  const number = Number(text);
  const found = Number.isFinite(number) && text !== '' ? TAX_CATEGORIES.find((code) => Number(code) === number) : undefined;
  if (found === undefined) return { problem: { kind: 'tax-invalid', params: { value: cell, options: TAX_CATEGORIES.join(', ') } } };
  return { value: found };
}

/** A Swiss date, day first: "01.12.2026" or "1.12.2026". */
const SWISS_DATE = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;

function readDate(cell: string): CellValue {
  const swiss = SWISS_DATE.exec(cell);
  const iso = swiss ? `${swiss[3]}-${swiss[2]!.padStart(2, '0')}-${swiss[1]!.padStart(2, '0')}` : cell;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00.000Z`) : new Date(iso);
  // A day that does not exist ("31.02.2026") would roll over into the next month.
  const exists = !/^\d{4}-\d{2}-\d{2}$/.test(iso) || date.toISOString().startsWith(iso);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(iso) || !exists) {
    return { problem: { kind: 'date-invalid', params: { value: cell } } };
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
    case 'text': {
      const text = TEXT_FORMULA.exec(cell)?.[1] ?? cell;
      if (column === 'barcode' && SHORTENED_NUMBER.test(text)) {
        return { problem: { kind: 'barcode-shortened', params: { value: cell } } };
      }
      return { value: unguarded(text) };
    }
    case 'reference':
      return { value: unguarded(cell) };
    case 'francs':
      return readFrancs(cell);
    case 'tax':
      return readTax(cell);
    case 'date':
      return readDate(cell);
    case 'boolean': {
      const word = wordKey(cell);
      if (TRUE_WORDS.has(word)) return { value: true };
      if (FALSE_WORDS.has(word)) return { value: false };
      return { problem: { kind: 'boolean-invalid', params: { value: cell } } };
    }
    case 'integer':
      return /^-?\d+$/.test(cell) ? { value: Number(cell) } : { problem: { kind: 'integer-invalid', params: { value: cell } } };
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

/** A field's value as a report of changes shows it: francs, true/false, or the value itself; null when not set. */
export function shownValue(column: CatalogColumn, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (KINDS[column] === 'francs') return francs(value as number);
  if (KINDS[column] === 'boolean') return value ? 'true' : 'false';
  return String(value);
}

/** Whether the column holds text a person wrote (checked for a wrong character set). */
export const isWrittenText = (column: CatalogColumn): boolean => column !== 'id' && column !== 'externalId' && column !== 'barcode' && column !== 'imageUrl' && (KINDS[column] === 'text' || KINDS[column] === 'reference');

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
