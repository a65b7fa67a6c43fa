import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { runProcess } from './support/processes.js';

/**
 * Each case runs in a process of its own started with `--expose-gc`, where
 * the garbage collector runs every few milliseconds (test/support/gc-pressure-sync.ts):
 * the limit of an upstream call must fire however often it runs.
 */
async function underGcPressure(name: 'silent' | 'stalled' | 'store'): Promise<any> {
  const run = await runProcess(process.execPath, ['--expose-gc', '--import', 'tsx', join(PROJECT_ROOT, 'test/support/gc-pressure-sync.ts'), name], { cwd: PROJECT_ROOT });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? 'null');
}

describe('time limits of upstream calls under garbage-collector pressure (field condition: calls waiting past their limit)', () => {
  it('ends a call to a server that accepts and never answers at its limit', async () => {
    expect((await underGcPressure('silent')).result).toEqual({ kind: 'no-answer', message: 'TimeoutError' });
  }, 100_000);

  it('ends a call whose answer stalls in the middle of its body at its limit', async () => {
    expect((await underGcPressure('stalled')).result).toEqual({ kind: 'no-answer', message: 'TimeoutError' });
  }, 100_000);

  it('shows the store offline within a minute of a sale, the sale still pending', async () => {
    const status = await underGcPressure('store');
    expect(status.state).toBe('offline');
    expect(status.pending).toBeGreaterThanOrEqual(1);
  }, 100_000);
});
