import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:https';
import { createInterface } from 'node:readline';
import { terminalNetworkPolicy } from '../../main/payments/terminal-network.js';
import type { TerminalEndpoint } from '../../main/payments/terminal-protocol.js';
import { terminalCertificateNames } from '../../main/payments/nexo/terminal-certificate.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { compiled } from './compiled-product.js';

/** The simulator listens on loopback: tests widen the terminal rule as the settings document. */
export const TEST_TERMINAL_NETWORK = terminalNetworkPolicy({ TERMINAL_ALLOW_ADDRESSES: 'loopback' });

/** The simulator's ready line: what the server needs to reach a terminal, as `POST /terminals` takes it. */
export type ReadyLine = TerminalEndpoint;

export interface SimulatedTransaction {
  serviceId: string;
  reference: string;
  amount: number;
  currency: string;
  state: string;
  refunded: number;
  brand: string;
  /** When it was approved, declined or cancelled; when it arrived while in progress. */
  decidedAt: string;
}

export interface TerminalSimulator {
  ready: ReadyLine;
  child: ChildProcess;
  /** Everything it wrote on stdout and stderr. */
  output(): string;
  next(order: Record<string, unknown>): Promise<void>;
  transactions(): Promise<SimulatedTransaction[]>;
  /** Drops off the network for `ms`, or until `reachable()`. */
  unreachable(ms?: number): Promise<void>;
  /** Back on the network now; resolves once it answers again. */
  reachable(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The simulator's side door (`/simulator/...`) over its own TLS, checked as a
 * terminal is: by its CA and the name its certificate carries, not the address.
 */
export function simulatorCall(ready: ReadyLine): (method: string, path: string, body?: unknown) => Promise<any> {
  return (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = request({ host: ready.host, port: ready.port, path, method, ca: ready.certificate, servername: terminalCertificateNames(ready.poiId)[0], agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`))));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

/** An absence no test outlasts: it ends when the test calls `reachable()`. */
const UNTIL_TOLD_MS = 3_600_000;

/**
 * Starts `npm run terminal:sim` as users run it (here its compiled entry), and waits for its ready line.
 * `args` come first (`--host`, `--poi-id`, a `--port` of their own).
 */
export async function startTerminalSimulator(args: string[] = []): Promise<TerminalSimulator> {
  const child = spawn(process.execPath, [compiled('main/terminal-sim/start.js'), ...args, '--port', '0'], { cwd: PROJECT_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const lines = createInterface({ input: child.stdout! });
  const ready = await new Promise<ReadyLine>((resolve, reject) => {
    lines.once('line', (line) => {
      output += `${line}\n`;
      resolve(JSON.parse(line) as ReadyLine);
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}: ${output}`)));
  });
  lines.on('line', (line) => (output += `${line}\n`));
  const call = simulatorCall(ready);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    ready,
    child,
    output: () => output,
    next: async (order) => void (await call('POST', '/simulator/next', order)),
    transactions: async () => (await call('GET', '/simulator/transactions')) as SimulatedTransaction[],
    unreachable: async (ms = UNTIL_TOLD_MS) => void (await call('POST', '/simulator/unreachable', { ms })),
    reachable: async () => {
      child.stdin!.write('\n');
      for (;;) {
        try {
          await call('GET', '/simulator/transactions');
          return;
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
