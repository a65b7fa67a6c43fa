import { CATALOG_COLUMN_ALIASES, CATALOG_COLUMNS, headerKey, type CatalogColumn, type CatalogColumnMap, type CatalogFileError } from '../../shared/api/catalog.js';
import type { FileRecord } from './csv-text.js';

/** The columns a file's header names. */
export interface Header {
  /** Column of each cell position; undefined for a column ignored or refused. */
  columns: (CatalogColumn | undefined)[];
  /** The header's name of each column, as the file writes it. */
  names: Map<CatalogColumn, string>;
}

/** Product fields by every name a header may give them, compared as `headerKey` compares. */
const KNOWN = new Map<string, CatalogColumn>([
  ...Object.entries(CATALOG_COLUMN_ALIASES).map(([alias, c]) => [headerKey(alias), c] as const),
  ...CATALOG_COLUMNS.map((c) => [headerKey(c), c] as const),
]);

/** A mapping's headers as `headerKey` compares them; the later mapping wins. */
export function mappingOf(...maps: (CatalogColumnMap | undefined)[]): Map<string, CatalogColumn | ''> {
  const mapping = new Map<string, CatalogColumn | ''>();
  for (const map of maps) for (const [header, field] of Object.entries(map ?? {})) mapping.set(headerKey(header), field);
  return mapping;
}

const hasValues = (records: FileRecord[], at: number) => records.some((record) => (record.cells[at] ?? '').trim() !== '');

/**
 * The columns of the header row: each header mapped (for this import or
 * kept for the organization), else a product field's name in English,
 * German, French or Italian. A column with neither header nor values (what
 * spreadsheets add after the last one) is ignored; an unknown header is one
 * error, on line 1, however many lines follow.
 */
export function readHeader(cells: string[], rows: FileRecord[], mapping: Map<string, CatalogColumn | ''>, errors: CatalogFileError[]): Header {
  const header: Header = { columns: [], names: new Map() };
  cells.forEach((raw, at) => {
    const name = raw.trim();
    const key = headerKey(name);
    const mapped = mapping.get(key);
    const column = mapped === '' ? undefined : (mapped ?? KNOWN.get(key));
    header.columns.push(undefined);
    if (mapped === '') return;
    if (name === '') {
      if (hasValues(rows, at)) errors.push({ line: 1, column: null, message: `column ${at + 1} has values but no header; name it (e.g. price) or map it with ?columns=` });
      return;
    }
    if (column === undefined) {
      errors.push({
        line: 1,
        column: name,
        message: `${JSON.stringify(name)} is not a product field; name a field (${CATALOG_COLUMNS.slice(1, 6).join(', ')}, …), map it with ?columns=${encodeURIComponent(name)}:<field>, or ignore it with ?columns=${encodeURIComponent(name)}:`,
      });
      return;
    }
    if (header.names.has(column)) {
      errors.push({ line: 1, column: name, message: `the column ${column} appears twice (also as ${JSON.stringify(header.names.get(column))})` });
      return;
    }
    header.columns[at] = column;
    header.names.set(column, name);
  });
  return header;
}
