import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/version.js';
import { runProcess } from './processes.js';

/**
 * The product compiled to JavaScript once per test run, so that the CLI and the
 * servers tests start in processes of their own run as an installation's do
 * (node on the compiled files) and start in a fraction of the time a
 * TypeScript loader takes. Each run compiles into a folder of its own inside
 * node_modules (where the compiled modules find the installed packages and
 * the project's package.json above them), named to the test processes in
 * `COMPILED_PRODUCT_DIR`, so that two runs at once do not share one.
 */
const ENV = 'COMPILED_PRODUCT_DIR';

/** Path of a compiled module, e.g. `compiled('main/cli.js')`. */
export function compiled(file: string): string {
  const dir = process.env[ENV];
  if (!dir) throw new Error(`${ENV} is not set: the test run's global set-up (compileProduct) compiles the product first`);
  return join(dir, file);
}

/**
 * Compiles main/ and shared/ without type-checking them (`npm run typecheck`
 * does that) and sets `COMPILED_PRODUCT_DIR` for this process and its
 * children. Returns a function that removes the copy.
 */
export async function compileProduct(): Promise<() => void> {
  const parent = join(PROJECT_ROOT, 'node_modules', '.cache');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'compiled-product-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const tsc = join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', 'tsconfig.build.json', '--noCheck', '--incremental', 'false', '--tsBuildInfoFile', 'null', '--outDir', dir];
  const result = await runProcess(process.execPath, args, { cwd: PROJECT_ROOT });
  if (result.status !== 0) {
    remove();
    throw new Error(`compiling the product for the tests failed:\n${result.stdout}${result.stderr}`);
  }
  process.env[ENV] = dir;
  return remove;
}
