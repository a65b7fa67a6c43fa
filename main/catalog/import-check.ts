import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { CATALOG_COLUMN_ALIASES, CATALOG_COLUMNS, type CatalogColumn, type CatalogFileError, type CatalogImportResult } from '../../shared/api/catalog.js';
import { ProductCreateSchema, ProductUpdateSchema, type ProductCreate, type ProductUpdate } from '../../shared/api/products.js';
import { normalizeCode } from '../services/products.js';
import type { CatalogIndex } from './catalog-index.js';
import { readCell, sameValue } from './cells.js';
import type { FileRecord } from './csv-text.js';

/** What an import writes: new products, and changes to matched ones (only the fields that change). */
export type PlannedWrite = { line: number; create: ProductCreate } | { line: number; id: string; patch: ProductUpdate };

export interface CheckedFile {
  result: CatalogImportResult;
  writes: PlannedWrite[];
}

/** Work done per turn of the event loop, in milliseconds, while rows are checked. */
const SLICE_MS = 4;

interface Header {
  /** Column of each cell position, undefined for a column refused in the header. */
  columns: (CatalogColumn | undefined)[];
  /** The header's name of each column, as the file writes it. */
  names: Map<CatalogColumn, string>;
}

const KNOWN = new Map<string, CatalogColumn>([
  ...CATALOG_COLUMNS.map((c) => [c.toLowerCase(), c] as const),
  ...Object.entries(CATALOG_COLUMN_ALIASES).map(([alias, c]) => [alias.toLowerCase(), c] as const),
]);

function readHeader(cells: string[], errors: CatalogFileError[]): Header {
  const header: Header = { columns: [], names: new Map() };
  for (const raw of cells) {
    const name = raw.trim();
    const column = KNOWN.get(name.toLowerCase());
    if (column === undefined) {
      errors.push({ line: 1, column: name, message: `${JSON.stringify(name)} is not a product field; the columns are ${CATALOG_COLUMNS.join(', ')}` });
    } else if (header.names.has(column)) {
      errors.push({ line: 1, column: name, message: `the column ${column} appears twice (also as ${JSON.stringify(header.names.get(column))})` });
    }
    header.columns.push(column !== undefined && !header.names.has(column) ? column : undefined);
    if (column !== undefined && !header.names.has(column)) header.names.set(column, name);
  }
  return header;
}

/** The row's fields as the API names them, with every problem of its cells. */
function readRow(header: Header, record: FileRecord, errors: CatalogFileError[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  header.columns.forEach((column, i) => {
    const cell = (record.cells[i] ?? '').trim();
    if (column === undefined || cell === '') return;
    const read = readCell(column, cell);
    if ('problem' in read) errors.push({ line: record.line, column: header.names.get(column)!, message: read.problem });
    else fields[column] = column === 'barcode' ? normalizeCode(read.value as string) : read.value;
  });
  return fields;
}

/** A reference cell that names what the product already has (as an export writes it) is no change, and is not looked up again. */
function resolveReferences(fields: Record<string, unknown>, current: Record<string, unknown> | undefined, index: CatalogIndex): { column: CatalogColumn; problem: string }[] {
  const problems: { column: CatalogColumn; problem: string }[] = [];
  for (const column of ['category', 'supplier'] as const) {
    const cell = fields[column];
    if (typeof cell !== 'string') continue;
    const referable = column === 'category' ? index.categories : index.suppliers;
    const stored = current?.[column];
    if (typeof stored === 'string' && (cell === stored || cell === referable.cellOf(stored))) {
      fields[column] = stored;
      continue;
    }
    const resolved = referable.resolve(cell);
    if ('problem' in resolved) problems.push({ column, problem: resolved.problem });
    else fields[column] = resolved.id;
  }
  return problems;
}

/** The product a row updates: the one with its externalId, else the one with its barcode; undefined creates one. */
function matchRow(fields: Record<string, unknown>, index: CatalogIndex): { id?: string; problem?: { column: CatalogColumn; message: string } } {
  if (typeof fields.externalId === 'string') {
    const ids = index.byExternalId(fields.externalId);
    if (ids.length > 1) return { problem: { column: 'externalId', message: `${JSON.stringify(fields.externalId)} is the externalId of ${ids.length} products; the row cannot tell which to update` } };
    if (ids.length === 1) return { id: ids[0]! };
  }
  if (typeof fields.barcode === 'string') {
    const ids = index.byBarcode(fields.barcode);
    if (ids.length > 1) {
      return { problem: { column: 'barcode', message: `${JSON.stringify(fields.barcode)} is the barcode of ${ids.length} products; give the row the externalId of the one to update` } };
    }
    if (ids.length === 1) return { id: ids[0]! };
  }
  return {};
}

/** Errors of a schema's check, each under the column of its field. */
function schemaProblems(issues: readonly z.core.$ZodIssue[]): { field: string; message: string }[] {
  return issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    const message = issue.code === 'invalid_type' && issue.input === undefined ? 'is needed to create a product' : issue.message;
    return { field, message };
  });
}

/**
 * Checks every row of a catalog file against the organization's catalog and
 * says what an import would do: which products it creates, which it changes
 * (and how), which it leaves as they are, and every problem found, by line
 * and column. Writes nothing. Rows are checked a few milliseconds at a time.
 */
export async function checkCatalogFile(records: FileRecord[], index: CatalogIndex): Promise<CheckedFile> {
  const errors: CatalogFileError[] = [];
  const writes: PlannedWrite[] = [];
  const result: CatalogImportResult = { created: 0, updated: 0, unchanged: 0, errors };
  const [first, ...rows] = records;
  if (!first) {
    errors.push({ line: 1, column: null, message: `The file is empty: its first line must name the columns (${CATALOG_COLUMNS.join(', ')})` });
    return { result, writes };
  }
  const header = readHeader(first.cells, errors);
  // Lines read under a wrong header would only repeat its mistake.
  if (errors.length > 0) return { result, writes };
  const barcodeLines = new Map<string, number>();
  const productLines = new Map<string, number>();
  const columnOf = (field: string) => header.names.get(field as CatalogColumn) ?? field;
  let sliceEnds = performance.now() + SLICE_MS;
  for (const record of rows) {
    if (performance.now() > sliceEnds) {
      await nextTurn();
      sliceEnds = performance.now() + SLICE_MS;
    }
    const line = record.line;
    if (record.cells.length !== first.cells.length) {
      const count = record.cells.length;
      errors.push({ line, column: null, message: `the line has ${count} field${count === 1 ? '' : 's'} but the header has ${first.cells.length}; check for a separator inside a cell that is not in quotes` });
      continue;
    }
    const rowErrors: CatalogFileError[] = [];
    const fields = readRow(header, record, rowErrors);
    const barcode = fields.barcode;
    if (typeof barcode === 'string') {
      const earlier = barcodeLines.get(barcode);
      if (earlier !== undefined) rowErrors.push({ line, column: columnOf('barcode'), message: `the barcode ${JSON.stringify(barcode)} is also on line ${earlier}` });
      else barcodeLines.set(barcode, line);
    }
    const match = matchRow(fields, index);
    if (match.problem) rowErrors.push({ line, column: columnOf(match.problem.column), message: match.problem.message });
    const current = match.id === undefined ? undefined : index.products.get(match.id);
    for (const { column, problem } of resolveReferences(fields, current, index)) rowErrors.push({ line, column: columnOf(column), message: problem });
    if (match.id !== undefined) {
      const earlier = productLines.get(match.id);
      if (earlier !== undefined) rowErrors.push({ line, column: null, message: `the line updates the same product as line ${earlier}` });
      else productLines.set(match.id, line);
    }
    if (rowErrors.length > 0) {
      errors.push(...rowErrors);
      continue;
    }
    if (!current) {
      const parsed = ProductCreateSchema.safeParse(fields);
      if (!parsed.success) {
        for (const { field, message } of schemaProblems(parsed.error.issues)) errors.push({ line, column: columnOf(field), message });
        continue;
      }
      writes.push({ line, create: parsed.data });
      result.created += 1;
      continue;
    }
    const patch = Object.fromEntries(Object.entries(fields).filter(([column, value]) => !sameValue(column as CatalogColumn, current[column as CatalogColumn], value)));
    if (Object.keys(patch).length === 0) {
      result.unchanged += 1;
      continue;
    }
    const parsed = ProductUpdateSchema.safeParse(patch);
    if (!parsed.success) {
      for (const { field, message } of schemaProblems(parsed.error.issues)) errors.push({ line, column: columnOf(field), message });
      continue;
    }
    writes.push({ line, id: current.id, patch: parsed.data });
    result.updated += 1;
  }
  return { result, writes };
}
