import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../main/version.js';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: any;
}

/**
 * Runs the administration CLI exactly as an operator does: `npm run -s cli -- <args>`.
 * Asynchronous on purpose: a test's server runs in the test process, and a
 * synchronous spawn would freeze its event loop for seconds, so the keep-alive
 * connection of the next request would be reset under it.
 */
export function runCli(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'cli', '--', ...args], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => {
      let json: unknown;
      try {
        if (args.includes('--json') && stdout.trim() !== '') json = JSON.parse(stdout);
      } catch (error) {
        reject(new Error(`CLI printed no valid JSON: ${stdout}\n${stderr}`, { cause: error }));
        return;
      }
      resolve({ status, stdout, stderr, json });
    });
  });
}
