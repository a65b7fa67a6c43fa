import { MAX_REPORTED, type CatalogFileChange, type CatalogFileError, type CatalogImportResult } from '../../shared/api/catalog.js';

/** Lines named per group of errors. */
const LINES_PER_GROUP = 10;

/** A message without the values of its line, so that lines with the same problem group together. */
const kindOf = (message: string) => message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\b(line|lines) \d+/g, '$1 …').replace(/\b\d+ (fields?|products)\b/g, '… $1');

/**
 * A check's report as it grows: every error, warning and change is counted;
 * the first `MAX_REPORTED` of each are listed, and errors are also grouped by
 * column and kind, so that 20,000 lines with one mistake read as one line.
 */
export function createCheckReport() {
  const errors: CatalogFileError[] = [];
  const warnings: CatalogFileError[] = [];
  const changes: CatalogFileChange[] = [];
  const groups = new Map<string, { column: string | null; message: string; count: number; lines: number[] }>();
  const totals = { errors: 0, warnings: 0, changes: 0 };
  const counts = { created: 0, updated: 0, unchanged: 0 };

  return {
    counts,
    hasErrors: () => totals.errors > 0,
    error(error: CatalogFileError): void {
      totals.errors += 1;
      if (errors.length < MAX_REPORTED) errors.push(error);
      const message = kindOf(error.message);
      const key = `${error.column ?? ''}\u0000${message}`;
      const group = groups.get(key) ?? { column: error.column, message, count: 0, lines: [] };
      group.count += 1;
      if (group.lines.length < LINES_PER_GROUP) group.lines.push(error.line);
      groups.set(key, group);
    },
    warning(warning: CatalogFileError): void {
      totals.warnings += 1;
      if (warnings.length < MAX_REPORTED) warnings.push(warning);
    },
    change(change: CatalogFileChange): void {
      totals.changes += 1;
      if (changes.length < MAX_REPORTED) changes.push(change);
    },
    result(): CatalogImportResult {
      const byLine = (a: { line: number }, b: { line: number }) => a.line - b.line;
      return {
        ...counts,
        errors: [...errors].sort(byLine),
        errorsTotal: totals.errors,
        errorGroups: [...groups.values()].sort((a, b) => b.count - a.count || a.lines[0]! - b.lines[0]!),
        warnings: [...warnings].sort(byLine),
        warningsTotal: totals.warnings,
        changes,
        changesTotal: totals.changes,
      };
    },
  };
}

export type CheckReport = ReturnType<typeof createCheckReport>;
