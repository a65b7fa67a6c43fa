import {
  MAX_REPORTED,
  type CatalogFileChange,
  type CatalogFileError,
  type CatalogFileWarning,
  type CatalogHeaderColumn,
  type CatalogImportResult,
  type CatalogPreviewRow,
} from '../../shared/api/catalog.js';
import { groupedProblem } from './file-problems.js';

/** Lines named per group of errors. */
const LINES_PER_GROUP = 10;

type Group = CatalogImportResult['errorGroups'][number];

/** Problems of one kind (errors, or warnings) grouped by column and kind of message, the largest group first. */
function createGroups() {
  const groups = new Map<string, Group>();
  return {
    add(problem: CatalogFileError): void {
      const { line, column } = problem;
      const shown = groupedProblem(problem);
      // The English text tells kinds apart by the values all their lines share too (an EAN-8's dropped zero from a UPC-A's).
      const key = `${column ?? ''}\u0000${shown.kind}\u0000${shown.message}`;
      const group = groups.get(key) ?? { column, ...shown, count: 0, lines: [] };
      group.count += 1;
      if (group.lines.length < LINES_PER_GROUP) group.lines.push(line);
      groups.set(key, group);
    },
    sorted: (): Group[] => [...groups.values()].sort((a, b) => b.count - a.count || a.lines[0]! - b.lines[0]!),
  };
}

/**
 * A check's report as it grows: every error, warning and change is counted;
 * the first `MAX_REPORTED` of each are listed, and errors and warnings are
 * also grouped by column and kind, so that 20,000 lines with one mistake read
 * as one line.
 */
export function createCheckReport() {
  const errors: CatalogFileError[] = [];
  const warnings: CatalogFileWarning[] = [];
  const changes: CatalogFileChange[] = [];
  const errorGroups = createGroups();
  const warningGroups = createGroups();
  const totals = { errors: 0, warnings: 0, changes: 0, fixable: 0, fixed: 0 };
  const counts = { created: 0, updated: 0, unchanged: 0 };
  let header: CatalogHeaderColumn[] = [];
  let preview: CatalogPreviewRow[] = [];

  return {
    counts,
    hasErrors: () => totals.errors > 0,
    error(error: CatalogFileError): void {
      totals.errors += 1;
      if (errors.length < MAX_REPORTED) errors.push(error);
      errorGroups.add(error);
    },
    warning(warning: CatalogFileWarning): void {
      totals.warnings += 1;
      if (warning.suggested !== undefined) totals.fixable += 1;
      if (warnings.length < MAX_REPORTED) warnings.push(warning);
      warningGroups.add(warning);
    },
    /** A barcode replaced by its suggested code (`fixBarcodes`). */
    fixed(): void {
      totals.fixed += 1;
    },
    change(change: CatalogFileChange): void {
      totals.changes += 1;
      if (changes.length < MAX_REPORTED) changes.push(change);
    },
    /** The file's columns and first rows, for a page to show and map. */
    describe(columns: CatalogHeaderColumn[], rows: CatalogPreviewRow[]): void {
      header = columns;
      preview = rows;
    },
    result(): CatalogImportResult {
      const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
      return {
        ...counts,
        errors: [...errors].sort(byLine),
        errorsTotal: totals.errors,
        errorGroups: errorGroups.sorted(),
        warnings: [...warnings].sort(byLine),
        warningsTotal: totals.warnings,
        warningGroups: warningGroups.sorted(),
        warningsFixable: totals.fixable,
        barcodesFixed: totals.fixed,
        changes,
        changesTotal: totals.changes,
        header,
        preview,
      };
    },
  };
}

export type CheckReport = ReturnType<typeof createCheckReport>;
