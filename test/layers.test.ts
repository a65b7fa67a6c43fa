import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';

/**
 * Imports point down (routes, then services, then storage, with the
 * capabilities beside them). The HTTP layer sits on top: only
 * the composition points (`app.ts`, `server.ts`) and the HTTP layer itself
 * may import from `main/http/`.
 */

const MAIN = join(PROJECT_ROOT, 'main');
/** Folders whose modules the HTTP layer uses, so none of them may use it. */
const BELOW_HTTP = ['backup', 'catalog', 'fleet', 'images', 'installation', 'payments', 'receipts', 'retention', 'rules', 'scales', 'search', 'services', 'storage', 'sync', 'system'];

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The project files a module imports (relative specifiers only), as paths from the project root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(PROJECT_ROOT, resolve(dirname(file), specifier)));
}

describe('layers', () => {
  it('no module below the HTTP layer imports from main/http', () => {
    const upward = BELOW_HTTP.flatMap((folder) =>
      sourceFiles(join(MAIN, folder)).flatMap((file) =>
        importsOf(file)
          .filter((target) => target.startsWith(join('main', 'http') + '/'))
          .map((target) => `${relative(PROJECT_ROOT, file)} imports ${target}`),
      ),
    );
    expect(upward).toEqual([]);
  });
});
