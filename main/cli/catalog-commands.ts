import { readFileSync } from 'node:fs';
import type { CatalogImportResult } from '../../shared/api/catalog.js';
import { catalogFilesOf } from '../catalog/catalog-files.js';
import type { Caller } from '../services/caller.js';
import { BadRequest, NotFound } from '../services/errors.js';
import type { Services } from '../services/index.js';
import { need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

/** The CLI acts as staff of the organization, without a key. */
function staffOf(services: Services, orgId: string): Caller {
  const org = services.stores.organizations.get(orgId);
  if (!org) throw new NotFound('Organization', orgId);
  return { orgId, keyKind: 'write', features: org.features };
}

function readFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (err) {
    throw new BadRequest(`<file>: cannot read ${JSON.stringify(path)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

function summary(result: CatalogImportResult, dryRun: boolean, written: boolean): string {
  const counts = `${result.created} to create, ${result.updated} to update, ${result.unchanged} unchanged`;
  const problems = result.errors.map((e) => `line ${e.line}${e.column === null ? '' : `, ${e.column}`}: ${e.message}`);
  const verdict = written ? 'Imported.' : dryRun ? (problems.length ? 'The file has problems:' : 'The file can be imported.') : 'Nothing was written; the file has problems:';
  return [counts, verdict, ...problems].join('\n');
}

export const catalogCommands: CliCommand[] = [
  {
    name: 'catalog import',
    usage: '<orgId> <file.csv|file.xlsx> [--dry-run] [--fix-barcodes]   (prints what was, or would be, created, updated and left unchanged, and every problem by line; --fix-barcodes writes the barcodes the warnings suggest)',
    options: { 'dry-run': { type: 'boolean', default: false }, 'fix-barcodes': { type: 'boolean', default: false } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, async (services, db) => {
        const caller = staffOf(services, need(args[0], '<orgId>'));
        const path = need(args[1], '<file>');
        const bytes = readFile(path);
        const dryRun = values['dry-run'] === true;
        const format = path.toLowerCase().endsWith('.xlsx') ? 'xlsx' : 'csv';
        const { result, written } = await catalogFilesOf(services, db).importFile(caller, bytes, { dryRun, format, fixBarcodes: values['fix-barcodes'] === true });
        return { json: result, text: summary(result, dryRun, written), exitCode: result.errorsTotal > 0 ? 1 : 0 };
      }),
  },
  {
    name: 'catalog export',
    usage: '<orgId>   (writes the catalog as CSV to standard output, the columns the import takes)',
    run: ({ args, dataDir }) =>
      withServices(dataDir, async (services, db) => {
        const file = await catalogFilesOf(services, db).exportFile(staffOf(services, need(args[0], '<orgId>')));
        return { json: { csv: file }, text: file, file };
      }),
  },
];
