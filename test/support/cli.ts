import { PROJECT_ROOT } from '../../main/version.js';
import { compiled } from './compiled-product.js';
import { runProcess, type ProcessResult } from './processes.js';

export interface CliResult extends ProcessResult {
  json: any;
}

/**
 * Runs the administration CLI as an installation does, `node dist/main/cli.js <args>`
 * (from the copy the test run compiled), asynchronously (see `runProcess`).
 * `test/cli.test.ts` also runs it the way an operator types it, `npm run -s cli`.
 */
export async function runCli(dataDir: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const result = await runProcess(process.execPath, [compiled('main/cli.js'), ...args], { cwd: PROJECT_ROOT, env: { DATA_DIR: dataDir, ...env }, input });
  let json: unknown;
  try {
    if (args.includes('--json') && result.stdout.trim() !== '') json = JSON.parse(result.stdout);
  } catch (error) {
    throw new Error(`CLI printed no valid JSON: ${result.stdout}\n${result.stderr}`, { cause: error });
  }
  return { ...result, json };
}
