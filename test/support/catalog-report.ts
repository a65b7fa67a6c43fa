import type { CatalogImportResult } from '../../shared/api/catalog.js';

/** A catalog check's whole report: the given counts, and nothing listed unless given. */
export function catalogReport(parts: Partial<CatalogImportResult>): CatalogImportResult {
  const errors = parts.errors ?? [];
  return {
    created: 0,
    updated: 0,
    unchanged: 0,
    errorsTotal: errors.length,
    errorGroups: [],
    warnings: [],
    warningsTotal: parts.warnings?.length ?? 0,
    changes: [],
    changesTotal: parts.changes?.length ?? 0,
    ...parts,
    errors,
  };
}
