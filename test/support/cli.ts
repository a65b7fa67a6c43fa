import { spawnSync } from 'node:child_process';
import { PROJECT_ROOT } from '../../main/version.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/** Runs the administration CLI exactly as an operator does: `npm run -s cli -- <args>`. */
export function runCli(dataDir: string, args: string[]): CliResult {
  const result = spawnSync('npm', ['run', '-s', 'cli', '--', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  let json: unknown;
  if (args.includes('--json') && result.stdout.trim() !== '') json = JSON.parse(result.stdout);
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, json };
}
