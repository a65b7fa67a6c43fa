import { expect } from 'vitest';
import type { CatalogImportResult } from '../../shared/api/catalog.js';

/** A catalog check's whole report: the given counts, and nothing listed unless given; the file's header and preview as they come. */
export function catalogReport(parts: Partial<CatalogImportResult>): CatalogImportResult {
  const errors = parts.errors ?? [];
  // A test may give its warnings as a matcher (`expect.arrayContaining`) rather than a list.
  const warnings = Array.isArray(parts.warnings) ? parts.warnings : undefined;
  return {
    created: 0,
    updated: 0,
    unchanged: 0,
    errorsTotal: errors.length,
    errorGroups: [],
    warnings: [],
    warningsTotal: warnings?.length ?? 0,
    warningGroups: parts.warnings === undefined || warnings?.length === 0 ? [] : expect.any(Array),
    warningsFixable: warnings ? warnings.filter((warning) => warning.suggested !== undefined).length : expect.any(Number),
    barcodesFixed: 0,
    changes: [],
    changesTotal: parts.changes?.length ?? 0,
    header: expect.any(Array),
    preview: expect.any(Array),
    ...parts,
    errors,
  };
}
