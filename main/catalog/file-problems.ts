import { CATALOG_COLUMNS, type CatalogFileError, type CatalogProblemKind } from '../../shared/api/catalog.js';

/**
 * A kind's English text from its values, and which of those values belong
 * to one line (left out, as "…", when lines are grouped) rather than to the
 * kind (kept: the accepted tax categories, a barcode's format).
 */
interface Template<P extends string> {
  perLine: readonly P[];
  message: (params: Record<P, string>) => string;
}

const template = <const P extends string = never>(perLine: readonly P[], message: (params: Record<NoInfer<P>, string>) => string): Template<P> => ({ perLine, message });

const quoted = (text: string) => JSON.stringify(text);
const plural = (count: string, one: string, other: string) => `${count} ${count === '1' ? one : other}`;
const marginMessage = (bound: string) => (p: Record<'margin' | 'price' | 'costPrice' | 'limit' | 'category', string>) =>
  `the margin ${p.margin} % (price ${p.price}, cost price ${p.costPrice}) is ${bound} ${p.limit} % of the category ${quoted(p.category)}; check the cost price and the price`;

/**
 * The English text of every kind the check words itself. The product's own
 * rules (`required` apart) and `other` carry the text of the rule that
 * refused the value instead.
 */
const TEMPLATES = {
  'file-empty': template([], () => `The file is empty: its first line must name the columns (${CATALOG_COLUMNS.join(', ')})`),
  'file-utf16': template([], () => 'The file is UTF-16 (what Excel saves as "Unicode Text"): save it as "CSV UTF-8" or "CSV (semicolon-separated)" instead'),
  'quote-not-closed': template([], () => 'The file cannot be read from here on: a quoted cell is never closed: every " that opens a cell needs one that closes it'),
  'quote-in-cell': template([], () => 'The file cannot be read from here on: a " inside a cell must be written twice ("") or the whole cell put in quotes'),
  'header-unknown': template(['header'], ({ header }) => {
    const query = encodeURIComponent(header);
    return `${quoted(header)} is not a product field; name a field (${CATALOG_COLUMNS.slice(1, 6).join(', ')}, …), map it with ?columns=${query}:<field>, or ignore it with ?columns=${query}:`;
  }),
  'header-missing': template(['position'], ({ position }) => `column ${position} has values but no header; name it (e.g. price) or map it with ?columns=`),
  'header-twice': template(['field', 'other'], ({ field, other }) => `the column ${field} appears twice (also as ${quoted(other)})`),
  'line-fields': template<'count' | 'expected'>(
    ['count'],
    ({ count, expected }) => `the line has ${plural(count, 'field', 'fields')} but the header has ${expected}; check for a separator inside a cell that is not in quotes`,
  ),
  'barcode-shortened': template(['value'], ({ value }) => `${quoted(value)} is a barcode the spreadsheet shortened to a number; format the column as text and enter the whole code`),
  'francs-negative': template(['value'], ({ value }) => `${quoted(value)} is negative; a price is 0 or more francs`),
  'francs-invalid': template(['value'], ({ value }) => `${quoted(value)} is not an amount in francs; write it as on a receipt, e.g. 1.95, 1,95, Fr. 1.95 or 1'234.50`),
  'tax-invalid': template<'value' | 'options'>(['value'], ({ value, options }) => `${quoted(value)} is not a tax category; use ${options}`),
  'date-invalid': template(['value'], ({ value }) => `${quoted(value)} is not a date; write it as 01.12.2026, 2026-12-01 or 2026-12-01T23:59:59Z`),
  'boolean-invalid': template(['value'], ({ value }) => `${quoted(value)} is neither true nor false (also 1/0, ja/nein, WAHR/FALSCH, oui/non, VRAI/FAUX, sì/no, VERO/FALSO)`),
  'integer-invalid': template(['value'], ({ value }) => `${quoted(value)} is not a whole number`),
  'external-id-ambiguous': template(['value', 'count'], ({ value, count }) => `${quoted(value)} is the externalId of ${count} products; the row cannot tell which to update`),
  'barcode-ambiguous': template(
    ['value', 'count'],
    ({ value, count }) => `${quoted(value)} is the barcode of ${count} products; give the row the id or externalId of the one to update`,
  ),
  'barcode-repeated': template(['value', 'otherLine'], ({ value, otherLine }) => `the barcode ${quoted(value)} is also on line ${otherLine}`),
  'product-repeated': template(['otherLine'], ({ otherLine }) => `the line updates the same product as line ${otherLine}`),
  'category-unknown': template(['value'], ({ value }) => `no category has the id or name ${quoted(value)}`),
  'category-ambiguous': template(['value', 'count'], ({ value, count }) => `${quoted(value)} is the name of ${count} categories; write the id of the one meant`),
  'supplier-unknown': template(['value'], ({ value }) => `no supplier has the id or name ${quoted(value)}`),
  'supplier-ambiguous': template(['value', 'count'], ({ value, count }) => `${quoted(value)} is the name of ${count} suppliers; write the id of the one meant`),
  required: template([], () => 'is needed to create a product'),
  'barcode-leading-zero': template<'value' | 'code' | 'format'>(
    ['value', 'code'],
    ({ value, code, format }) =>
      `${quoted(value)} looks like the ${format} ${code} whose leading zero a spreadsheet dropped; the scanner reads ${code}, so write it that way (format the column as text)`,
  ),
  'barcode-check-digit': template(['value', 'expected'], ({ value, expected }) => `${quoted(value)} has a wrong check digit (the last digit would be ${expected}); check the code for a mistyped digit`),
  'barcode-check-digit-product': template(
    ['value', 'expected', 'productBarcode'],
    ({ value, expected, productBarcode }) =>
      `${quoted(value)} has a wrong check digit (the last digit would be ${expected}); the product's barcode is ${productBarcode}, one typing slip away: check the code for a mistyped digit`,
  ),
  'letters-lost': template(
    ['value'],
    ({ value }) => `${quoted(value)} has "?" where letters were: the file was saved in a character set without them; save it as "CSV UTF-8" or as a workbook`,
  ),
  'letters-lost-stored': template(
    ['value', 'stored'],
    ({ value, stored }) =>
      `${quoted(value)} has "?" where letters were (the product has ${quoted(stored)}): the file was saved in a character set without them; save it as "CSV UTF-8" or as a workbook`,
  ),
  'text-misread': template<'value' | 'reads' | 'charset'>(
    ['value', 'reads'],
    ({ value, reads, charset }) =>
      `${quoted(value)} looks like text written in ${CHARSET_NAMES[charset as Charset] ?? charset}: it would read ${quoted(reads)}. Save the file as "CSV UTF-8" or as a workbook and check it again`,
  ),
  'margin-below': template(['margin', 'price', 'costPrice', 'limit', 'category'], marginMessage('below the minimum')),
  'margin-above': template(['margin', 'price', 'costPrice', 'limit', 'category'], marginMessage('above the maximum')),
} satisfies Partial<Record<CatalogProblemKind, Template<string>>>;

/** Character sets a misread file was probably written in, as `text-misread` names them. */
const CHARSET_NAMES = {
  'utf-8': 'UTF-8 read as Windows-1252',
  'mac-roman': 'Mac Roman (as old Mac programs save)',
  cp850: 'CP850 (as DOS and cash-register programs save)',
} as const;
export type Charset = keyof typeof CHARSET_NAMES;

type Templates = typeof TEMPLATES;
/** A kind the check words itself. */
export type WordedKind = keyof Templates;

/** A problem found, before it is placed on a line: its kind and the values its text needs. */
export type Finding = { [K in WordedKind]: { kind: K; params: Parameters<Templates[K]['message']>[0] } }[WordedKind];

/** A line's problem of a kind the check words: `message` is built from the same kind and values a page translates. */
export function fileProblem(line: number, column: string | null, finding: Finding): CatalogFileError {
  const params = finding.params as Record<string, string>;
  return { line, column, message: (TEMPLATES[finding.kind].message as (p: Record<string, string>) => string)(params), kind: finding.kind, params };
}

/** A line's problem whose English text comes from the rule that found it (the product schema's, or an unforeseen one). */
export function ruledProblem(line: number, column: string | null, kind: Exclude<CatalogProblemKind, WordedKind>, message: string, params: Record<string, string> = {}): CatalogFileError {
  return { line, column, message, kind, params };
}

const isWorded = (kind: CatalogProblemKind): kind is WordedKind => kind in TEMPLATES;

/**
 * A problem as a group of lines shows it: the kind's values that belong to
 * one line left out ("…" in the English text, absent from `params`). A rule's
 * own text has no line's values, except quoted ones in an unforeseen problem.
 */
export function groupedProblem({ kind, params, message }: CatalogFileError): { kind: CatalogProblemKind; params: Record<string, string>; message: string } {
  if (!isWorded(kind)) return { kind, params, message: kind === 'other' ? message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"') : message };
  const perLine = new Set<string>(TEMPLATES[kind].perLine);
  const shared = Object.fromEntries(Object.entries(params).filter(([name]) => !perLine.has(name)));
  const blanked = { ...params, ...Object.fromEntries([...perLine].map((name) => [name, '…'])) };
  return { kind, params: shared, message: (TEMPLATES[kind].message as (p: Record<string, string>) => string)(blanked) };
}
