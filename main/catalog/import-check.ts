import { setImmediate as nextTurn } from 'node:timers/promises';
import { PREVIEW_ROWS, type CatalogColumn, type CatalogFileError, type CatalogImportResult } from '../../shared/api/catalog.js';
import { ProductCreateSchema, ProductUpdateSchema, type ProductCreate, type ProductUpdate } from '../../shared/api/products.js';
import { productMargin } from '../../shared/product-margin.js';
import { normalizeCode } from '../services/products.js';
import { barcodeIssue } from './barcode-checks.js';
import type { CatalogIndex } from './catalog-index.js';
import { isWrittenText, readCell, sameValue, shownValue } from './cells.js';
import { createCheckReport, type CheckReport } from './check-report.js';
import type { FileRecord } from './csv-text.js';
import { fileProblem, type Finding } from './file-problems.js';
import { readHeader, type Header, type Mapped } from './header-columns.js';
import { schemaProblem } from './schema-problems.js';
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
    if ('problem' in read) errors.push(fileProblem(record.line, header.names.get(column)!, read.problem));
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
function resolveReferences(fields: Record<string, unknown>, current: Record<string, unknown> | undefined, index: CatalogIndex): { column: CatalogColumn; problem: Finding }[] {
  const problems: { column: CatalogColumn; problem: Finding }[] = [];
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
function matchRow(id: string | undefined, fields: Record<string, unknown>, index: CatalogIndex): { id?: string; problem?: { column: CatalogColumn; finding: Finding } } {
  if (id !== undefined && index.products.has(id)) return { id };
  if (typeof fields.externalId === 'string') {
    const ids = index.byExternalId(fields.externalId);
    if (ids.length > 1) return { problem: { column: 'externalId', finding: { kind: 'external-id-ambiguous', params: { value: fields.externalId, count: String(ids.length) } } } };
    if (ids.length === 1) return { id: ids[0]! };
  }
  if (typeof fields.barcode === 'string') {
    const ids = index.byBarcode(fields.barcode);
    if (ids.length > 1) return { problem: { column: 'barcode', finding: { kind: 'barcode-ambiguous', params: { value: fields.barcode, count: String(ids.length) } } } };
    if (ids.length === 1) return { id: ids[0]! };
  }
  return {};
}

/** Warnings of a row's text cells: text read in the wrong character set, letters a save replaced by "?". */
function textWarnings(header: Header, record: FileRecord, current: Record<string, unknown> | undefined, report: CheckReport, misread: ReturnType<typeof createMisreadCollector>) {
  header.columns.forEach((column, i) => {
    const cell = (record.cells[i] ?? '').trim();
    if (column === undefined || cell === '' || !isWrittenText(column)) return;
    const name = header.names.get(column)!;
    misread.add(record.line, name, cell);
    const stored = current?.[column];
    if (!lostLetters(cell, typeof stored === 'string' ? stored : undefined)) return;
    report.warning(
      fileProblem(record.line, name, typeof stored === 'string' ? { kind: 'letters-lost-stored', params: { value: cell, stored } } : { kind: 'letters-lost', params: { value: cell } }),
    );
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
  const column = (['costPrice', 'price', 'category'] as const).map((c) => header.names.get(c)).find((name) => name !== undefined) ?? null;
  const below = margin.standing === 'below-min';
  const params = {
    margin: String(margin.percent),
    price: shownValue('price', price) ?? '',
    costPrice: shownValue('costPrice', costPrice) ?? '',
    limit: String(below ? category.marginMinPercent : category.marginMaxPercent),
    category: category.name,
  };
  return fileProblem(line, column, { kind: below ? 'margin-below' : 'margin-above', params });
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
  report.warning({ ...fileProblem(line, column, issue.finding), ...(issue.suggested === undefined ? {} : { suggested: issue.suggested }) });
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
    report.error(fileProblem(1, null, { kind: 'file-empty', params: {} }));
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
      report.error(fileProblem(line, null, { kind: 'line-fields', params: { count: String(record.cells.length), expected: String(first.cells.length) } }));
      continue;
    }
    const rowErrors: CatalogFileError[] = [];
    const { id, fields } = readRow(header, record, rowErrors);
    checkBarcode(id, fields, line, columnOf('barcode'), index, report, fixBarcodes);
    const barcode = fields.barcode;
    if (typeof barcode === 'string') {
      const earlier = barcodeLines.get(barcode);
      if (earlier !== undefined) rowErrors.push(fileProblem(line, columnOf('barcode'), { kind: 'barcode-repeated', params: { value: barcode, otherLine: String(earlier) } }));
      else barcodeLines.set(barcode, line);
    }
    const match = matchRow(id, fields, index);
    if (match.problem) rowErrors.push(fileProblem(line, columnOf(match.problem.column), match.problem.finding));
    const current = match.id === undefined ? undefined : index.products.get(match.id);
    textWarnings(header, record, current, report, misread);
    for (const { column, problem } of resolveReferences(fields, current, index)) rowErrors.push(fileProblem(line, columnOf(column), problem));
    if (match.id !== undefined) {
      const earlier = productLines.get(match.id);
      if (earlier !== undefined) rowErrors.push(fileProblem(line, null, { kind: 'product-repeated', params: { otherLine: String(earlier) } }));
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
        for (const issue of parsed.error.issues) report.error(schemaProblem(line, columnOf(String(issue.path[0] ?? '')), issue, fields));
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
      for (const issue of parsed.error.issues) report.error(schemaProblem(line, columnOf(String(issue.path[0] ?? '')), issue, fields));
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
    report.warning(fileProblem(line, column, { kind: 'text-misread', params: { value: text, reads, charset: writtenIn } }));
  }
  return { result: report.result(), writes };
}
