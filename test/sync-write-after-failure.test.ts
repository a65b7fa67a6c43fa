import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { waitForSync } from './support/sync.js';

let pair: SyncPair | undefined;
afterAll(async () => {
  await pair?.destroy();
});

describe('a sale made after a round that found the upstream away', () => {
  it('is pushed once the upstream is back, not an interval later', async () => {
    // An hour between pushes: only the write itself may bring its push.
    pair = await startSyncPair({ intervalSeconds: 3600 });
    await waitForSync(pair.write, (s) => s.pending === 0 && s.state === 'idle');
    pair.proxy.setMode('down');
    const run = await runCli(pair.local.dataDir, ['sync', 'run', pair.org.id, '--json']);
    expect(run.status).toBe(1);
    expect((await pair.write.post('/suppliers', { name: 'Imkerei Waldrand' })).status).toBe(200);
    pair.proxy.setMode('pass');
    const status = await waitForSync(pair.write, (s) => s.pending === 0 && s.state === 'idle');
    expect(status.lastError).toBeNull();
  });
});
