import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/version.js';

/** Resident set size of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * CPU time (user and system, all threads) a process has used so far, in ms,
 * from /proc. Unlike requests per second, the CPU time one request costs
 * hardly moves when other processes compete for the cores.
 */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** Linux's unit for /proc/<pid>/stat times (USER_HZ), 100 on every common build. */
const CLOCK_TICKS_PER_SECOND = 100;

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

export interface Spawned {
  child: ChildProcess;
  stop(): Promise<void>;
}

export function spawnProcess(command: string, args: string[], env: Record<string, string>, cwd: string): Spawned {
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return {
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Builds the project and returns the command `npm start` runs once it has
 * built, so that a benchmark's server runs with the same node flags (the
 * young generation's size among them) as a store PC's.
 */
export function buildAndGetStartCommand(root = PROJECT_ROOT): { command: string; args: string[]; shown: string } {
  execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
  const startScript = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const shown = startScript.split('&&').pop()!.trim();
  const [command, ...args] = shown.split(/\s+/);
  return { command: command!, args, shown };
}
