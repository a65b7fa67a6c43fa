import { setImmediate as nextTurn } from 'node:timers/promises';
import type { z } from 'zod';
import { CATALOG_COLUMNS, PREVIEW_ROWS, type CatalogColumn, type CatalogFileError, type CatalogImportResult } from '../../shared/api/catalog.js';
import { ProductCreateSchema, ProductUpdateSchema, type ProductCreate, type ProductUpdate } from '../../shared/api/products.js';
import { productMargin } from '../../shared/product-margin.js';
import { normalizeCode } from '../services/products.js';
import { barcodeIssue } from './barcode-checks.js';
import type { CatalogIndex } from './catalog-index.js';
import { isWrittenText, readCell, sameValue, shownValue } from './cells.js';
import { createCheckReport, type CheckReport } from './check-report.js';
import type { FileRecord } from './csv-text.js';
import { readHeader, type Header, type Mapped } from './header-columns.js';
import { createMisreadCollector, lostLetters } from './text-checks.js';

/** What an import writes: new products, and changes to matched ones (only the fields that change). */
export type PlannedWrite = { line: number; create: ProductCreate } | { line: number; id: string; patch: ProductUpdate };

export interface CheckedFile {
  result: CatalogImportResult;
  writes: PlannedWrite[];
}

/** How a file is read: its headers' mapping, and whether suggested barcodes replace the cells'. */
export interface CheckOptions {
  mapping?: Map<string, Mapped>;
  fixBarcodes?: boolean;
}

/** Work done per turn of the event loop, in milliseconds, while rows are checked. */
const SLICE_MS = 4;

/** The row's fields as the API names them (its `id` apart), with every problem of its cells. */
function readRow(header: Header, record: FileRecord, errors: CatalogFileError[]): { id?: string; fields: Record<string, unknown> } {
  const fields: Record<string, unknown> = {};
  let id: string | undefined;
  header.columns.forEach((column, i) => {
    const cell = (record.cells[i] ?? '').trim();
    if (column === undefined || cell === '') return;
    const read = readCell(column, cell);
    if ('problem' in read) errors.push({ line: record.line, column: header.names.get(column)!, message: read.problem });
    else if (column === 'id') id = read.value as string;
    else fields[column] = column === 'barcode' ? normalizeCode(read.value as string) : read.value;
  });
  return { id, fields };
}

/** Whether the record's cells fit the header: cells past it must be empty, and cells short of it only those of ignored columns. */
function fitsHeader(header: Header, record: FileRecord): boolean {
  if (record.cells.length === header.columns.length) return true;
  if (record.cells.slice(header.columns.length).some((cell) => cell.trim() !== '')) return false;
  return header.columns.slice(record.cells.length).every((column) => column === undefined);
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

/** The product a row updates: the one with its `id`, else its externalId, else its barcode; undefined creates one. */
function matchRow(id: string | undefined, fields: Record<string, unknown>, index: CatalogIndex): { id?: string; problem?: { column: CatalogColumn; message: string } } {
  if (id !== undefined && index.products.has(id)) return { id };
  if (typeof fields.externalId === 'string') {
    const ids = index.byExternalId(fields.externalId);
    if (ids.length > 1) return { problem: { column: 'externalId', message: `${JSON.stringify(fields.externalId)} is the externalId of ${ids.length} products; the row cannot tell which to update` } };
    if (ids.length === 1) return { id: ids[0]! };
  }
  if (typeof fields.barcode === 'string') {
    const ids = index.byBarcode(fields.barcode);
    if (ids.length > 1) {
      return { problem: { column: 'barcode', message: `${JSON.stringify(fields.barcode)} is the barcode of ${ids.length} products; give the row the id or externalId of the one to update` } };
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

/** Warnings of a row's text cells: text read in the wrong character set, letters a save replaced by "?". */
function textWarnings(header: Header, record: FileRecord, current: Record<string, unknown> | undefined, report: CheckReport, misread: ReturnType<typeof createMisreadCollector>) {
  header.columns.forEach((column, i) => {
    const cell = (record.cells[i] ?? '').trim();
    if (column === undefined || cell === '' || !isWrittenText(column)) return;
    const name = header.names.get(column)!;
    misread.add(record.line, name, cell);
    const stored = current?.[column];
    if (lostLetters(cell, typeof stored === 'string' ? stored : undefined)) {
      const was = typeof stored === 'string' ? ` (the product has ${JSON.stringify(stored)})` : '';
      report.warning({ line: record.line, column: name, message: `${JSON.stringify(cell)} has "?" where letters were${was}: the file was saved in a character set without them; save it as "CSV UTF-8" or as a workbook` });
    }
  });
}

/**
 * A warning when the product as the row leaves it has a margin outside its
 * category's range, under the cost price's column (else the price's, else the
 * category's) when the file has it.
 */
function marginWarning(line: number, product: Record<string, unknown>, header: Header, index: CatalogIndex): CatalogFileError | undefined {
  const categoryId = typeof product.category === 'string' ? product.category : undefined;
  const category = categoryId === undefined ? undefined : index.category(categoryId);
  const price = typeof product.price === 'number' ? product.price : undefined;
  const costPrice = typeof product.costPrice === 'number' ? product.costPrice : undefined;
  const margin = productMargin({ price, costPrice }, category);
  if (!category || !margin || margin.standing === 'inside' || margin.standing === 'no-range') return undefined;
  const bound = margin.standing === 'below-min' ? `below the minimum ${category.marginMinPercent} %` : `above the maximum ${category.marginMaxPercent} %`;
  const column = (['costPrice', 'price', 'category'] as const).map((c) => header.names.get(c)).find((name) => name !== undefined) ?? null;
  return {
    line,
    column,
    message: `the margin ${margin.percent} % (price ${shownValue('price', price)}, cost price ${shownValue('costPrice', costPrice)}) is ${bound} of the category ${JSON.stringify(category.name)}; check the cost price and the price`,
  };
}

/**
 * A barcode a spreadsheet or a typist changed: a warning, or with
 * `fixBarcodes` the suggested code written into the row's fields instead
 * (before the row is matched, so a code whose leading zero is put back
 * finds its product). A code one slip away from a product's is told only
 * for the product the row names by id or externalId.
 */
function checkBarcode(id: string | undefined, fields: Record<string, unknown>, line: number, column: string, index: CatalogIndex, report: CheckReport, fix: boolean) {
  const code = fields.barcode;
  if (typeof code !== 'string') return;
  const named = matchRow(id, { externalId: fields.externalId }, index).id;
  const stored = named === undefined ? undefined : index.products.get(named)?.barcode;
  const issue = barcodeIssue(code, typeof stored === 'string' ? stored : undefined);
  if (!issue) return;
  if (fix && issue.suggested !== undefined) {
    fields.barcode = normalizeCode(issue.suggested);
    report.fixed();
    return;
  }
  report.warning({ line, column, message: issue.message, ...(issue.suggested === undefined ? {} : { suggested: issue.suggested }) });
}

/**
 * Checks every row of a catalog file against the organization's catalog and
 * says what an import would do: which products it creates, which it changes
 * (and how), which it leaves as they are, every problem found, by line and
 * column, and what looks wrong but imports as written. Writes nothing. Rows
 * are checked a few milliseconds at a time.
 */
export async function checkCatalogFile(records: FileRecord[], index: CatalogIndex, { mapping = new Map(), fixBarcodes = false }: CheckOptions = {}): Promise<CheckedFile> {
  const report = createCheckReport();
  const writes: PlannedWrite[] = [];
  const [first, ...rows] = records;
  if (!first) {
    report.error({ line: 1, column: null, message: `The file is empty: its first line must name the columns (${CATALOG_COLUMNS.join(', ')})` });
    return { result: report.result(), writes };
  }
  const headerErrors: CatalogFileError[] = [];
  const header = readHeader(first.cells, rows, mapping, headerErrors);
  report.describe(
    header.described,
    rows.slice(0, PREVIEW_ROWS).map(({ line, cells }) => ({ line, cells })),
  );
  headerErrors.forEach(report.error);
  // Lines read under a wrong header would only repeat its mistake.
  if (report.hasErrors()) return { result: report.result(), writes };
  const misread = createMisreadCollector();
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
    if (!fitsHeader(header, record)) {
      const count = record.cells.length;
      report.error({ line, column: null, message: `the line has ${count} field${count === 1 ? '' : 's'} but the header has ${first.cells.length}; check for a separator inside a cell that is not in quotes` });
      continue;
    }
    const rowErrors: CatalogFileError[] = [];
    const { id, fields } = readRow(header, record, rowErrors);
    checkBarcode(id, fields, line, columnOf('barcode'), index, report, fixBarcodes);
    const barcode = fields.barcode;
    if (typeof barcode === 'string') {
      const earlier = barcodeLines.get(barcode);
      if (earlier !== undefined) rowErrors.push({ line, column: columnOf('barcode'), message: `the barcode ${JSON.stringify(barcode)} is also on line ${earlier}` });
      else barcodeLines.set(barcode, line);
    }
    const match = matchRow(id, fields, index);
    if (match.problem) rowErrors.push({ line, column: columnOf(match.problem.column), message: match.problem.message });
    const current = match.id === undefined ? undefined : index.products.get(match.id);
    textWarnings(header, record, current, report, misread);
    for (const { column, problem } of resolveReferences(fields, current, index)) rowErrors.push({ line, column: columnOf(column), message: problem });
    if (match.id !== undefined) {
      const earlier = productLines.get(match.id);
      if (earlier !== undefined) rowErrors.push({ line, column: null, message: `the line updates the same product as line ${earlier}` });
      else productLines.set(match.id, line);
    }
    if (rowErrors.length > 0) {
      rowErrors.forEach(report.error);
      continue;
    }
    const margin = marginWarning(line, { ...current, ...fields }, header, index);
    if (margin) report.warning(margin);
    if (!current) {
      const parsed = ProductCreateSchema.safeParse(fields);
      if (!parsed.success) {
        for (const { field, message } of schemaProblems(parsed.error.issues)) report.error({ line, column: columnOf(field), message });
        continue;
      }
      writes.push({ line, create: parsed.data });
      report.counts.created += 1;
      continue;
    }
    const patch = Object.fromEntries(Object.entries(fields).filter(([column, value]) => !sameValue(column as CatalogColumn, current[column as CatalogColumn], value)));
    if (Object.keys(patch).length === 0) {
      report.counts.unchanged += 1;
      continue;
    }
    const parsed = ProductUpdateSchema.safeParse(patch);
    if (!parsed.success) {
      for (const { field, message } of schemaProblems(parsed.error.issues)) report.error({ line, column: columnOf(field), message });
      continue;
    }
    writes.push({ line, id: current.id, patch: parsed.data });
    report.counts.updated += 1;
    for (const [field, value] of Object.entries(patch)) {
      const column = field as CatalogColumn;
      const shown = (v: unknown) => (column === 'category' || column === 'supplier') && typeof v === 'string' ? (column === 'category' ? index.categories : index.suppliers).cellOf(v) : shownValue(column, v);
      report.change({ line, field: column, from: shown(current[column]), to: shown(value) ?? '' });
    }
  }
  for (const { line, column, text, reads, writtenIn } of misread.found()) {
    report.warning({ line, column, message: `${JSON.stringify(text)} looks like text written in ${writtenIn}: it would read ${JSON.stringify(reads)}. Save the file as "CSV UTF-8" or as a workbook and check it again` });
  }
  return { result: report.result(), writes };
}
