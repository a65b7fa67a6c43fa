import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { runProcess } from './support/processes.js';

/**
 * Each case runs in a process of its own started with `--expose-gc`, where
 * the garbage collector runs every few milliseconds (test/support/gc-pressure-client.ts):
 * the typed client's time limit must fire however often it runs.
 */
async function underGcPressure(name: 'silent' | 'stalled'): Promise<any> {
  const run = await runProcess(process.execPath, ['--expose-gc', '--import', 'tsx', join(PROJECT_ROOT, 'test/support/gc-pressure-client.ts'), name], { cwd: PROJECT_ROOT });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? 'null');
}

describe('the typed client\'s time limit under garbage-collector pressure', () => {
  it('ends a call to a server that accepts and never answers at its limit', async () => {
    expect((await underGcPressure('silent')).result).toEqual({ error: 'StoreNetworkError', message: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/health: no answer within 500 ms$/) });
  });

  it('ends a call whose answer stalls in the middle of its body at its limit', async () => {
    expect((await underGcPressure('stalled')).result).toEqual({ error: 'StoreNetworkError', message: expect.stringMatching(/^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/health: no answer within 500 ms$/) });
  });
});
