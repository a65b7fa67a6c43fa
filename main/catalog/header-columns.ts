import {
  CATALOG_COLUMN_ALIASES,
  CATALOG_COLUMNS,
  headerKey,
  type CatalogColumn,
  type CatalogColumnMap,
  type CatalogFileError,
  type CatalogHeaderColumn,
} from '../../shared/api/catalog.js';
import type { FileRecord } from './csv-text.js';
import { fileProblem } from './file-problems.js';

/** The columns a file's header names. */
export interface Header {
  /** Column of each cell position; undefined for a column ignored or refused. */
  columns: (CatalogColumn | undefined)[];
  /** The header's name of each column, as the file writes it. */
  names: Map<CatalogColumn, string>;
  /** Each column with the field it is read as and why, for a page to show (columns with neither header nor values left out). */
  described: CatalogHeaderColumn[];
}

/** A header's field in a mapping, and which mapping gave it. */
export interface Mapped {
  field: CatalogColumn | '';
  source: 'kept' | 'columns';
}

/** Product fields by every name a header may give them, compared as `headerKey` compares. */
const KNOWN = new Map<string, CatalogColumn>([
  ...Object.entries(CATALOG_COLUMN_ALIASES).map(([alias, c]) => [headerKey(alias), c] as const),
  ...CATALOG_COLUMNS.map((c) => [headerKey(c), c] as const),
]);

/** The kept mapping and this import's, by header as `headerKey` compares them; this import's wins. */
export function mappingOf(kept: CatalogColumnMap | undefined, columns: CatalogColumnMap | undefined): Map<string, Mapped> {
  const mapping = new Map<string, Mapped>();
  for (const [source, map] of [['kept', kept] as const, ['columns', columns] as const]) {
    for (const [header, field] of Object.entries(map ?? {})) mapping.set(headerKey(header), { field, source });
  }
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
export function readHeader(cells: string[], rows: FileRecord[], mapping: Map<string, Mapped>, errors: CatalogFileError[]): Header {
  const header: Header = { columns: [], names: new Map(), described: [] };
  cells.forEach((raw, at) => {
    const name = raw.trim();
    const key = headerKey(name);
    const mapped = mapping.get(key);
    const column = mapped?.field === '' ? undefined : (mapped?.field ?? KNOWN.get(key));
    header.columns.push(undefined);
    const describe = (field: CatalogColumn | '' | null, source: CatalogHeaderColumn['source']) => header.described.push({ position: at + 1, name, field, source });
    if (mapped?.field === '') {
      describe('', mapped.source);
      return;
    }
    if (name === '') {
      if (!hasValues(rows, at)) return;
      describe(null, null);
      errors.push(fileProblem(1, null, { kind: 'header-missing', params: { position: String(at + 1) } }));
      return;
    }
    if (column === undefined) {
      describe(null, null);
      errors.push(fileProblem(1, name, { kind: 'header-unknown', params: { header: name } }));
      return;
    }
    describe(column, mapped?.source ?? 'name');
    if (header.names.has(column)) {
      errors.push(fileProblem(1, name, { kind: 'header-twice', params: { field: column, other: header.names.get(column)! } }));
      return;
    }
    header.columns[at] = column;
    header.names.set(column, name);
  });
  return header;
}
