import { PROJECT_ROOT } from '../../main/version.js';
import { runProcess, type ProcessResult } from './processes.js';

export interface CliResult extends ProcessResult {
  json: any;
}

/**
 * Runs the administration CLI exactly as an operator does: `npm run -s cli -- <args>`,
 * asynchronously (see `runProcess`).
 */
export async function runCli(dataDir: string, args: string[], env: Record<string, string> = {}, input?: string): Promise<CliResult> {
  const result = await runProcess('npm', ['run', '-s', 'cli', '--', ...args], { cwd: PROJECT_ROOT, env: { DATA_DIR: dataDir, ...env }, input });
  let json: unknown;
  try {
    if (args.includes('--json') && result.stdout.trim() !== '') json = JSON.parse(result.stdout);
  } catch (error) {
    throw new Error(`CLI printed no valid JSON: ${result.stdout}\n${result.stderr}`, { cause: error });
  }
  return { ...result, json };
}
