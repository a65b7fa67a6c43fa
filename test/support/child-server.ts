import { spawn, type ChildProcess } from 'node:child_process';
import { PROJECT_ROOT } from '../../main/version.js';
import { compiled } from './compiled-product.js';
import { freePort } from './processes.js';

/** A start takes a second on an idle machine; two suites and a browser sharing two cores have stretched it past 30 s. */
const START_PATIENCE_MS = 90_000;

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** kill -9: no shutdown code runs, as in a power cut. Resolves once the process is gone. */
  crash(): Promise<void>;
}

/**
 * Starts the server in a process of its own, as `npm start` runs it (the
 * compiled entry point `dist/main/start.js`, here the test run's copy),
 * and waits until it answers. `env` adds variables, such as a test's crash point.
 */
export async function startChildServer(dataDir: string, port?: number, env: Record<string, string> = {}): Promise<ChildServer> {
  port ??= await freePort();
  const child = spawn(process.execPath, [compiled('main/start.js')], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/api/v1`;
  const deadline = Date.now() + START_PATIENCE_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${stderr}`);
    if (Date.now() > deadline) {
      // No test holds it yet to stop it: left running, it would outlive the suite.
      child.kill('SIGKILL');
      throw new Error(`the server did not answer within ${START_PATIENCE_MS / 1000} s: ${stderr}`);
    }
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    child,
    crash: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
