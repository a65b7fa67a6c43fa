import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { FAST_SYNC, configureSync, drainedSince, pulledSince, waitForSync } from './support/sync.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const named = async (client: Api, name: string) => (await collectPages(client, '/products?limit=500')).items.filter((p) => p.name === name);

describe('a store restored from a backup taken while a creation was pending', () => {
  it('creates the record upstream once, after the hub forgot its kept answer, and every store holds it once', async () => {
    const pair: SyncPair = await startSyncPair();
    cleanups.push(() => pair.destroy());
    const backupDir = join(mkdtempSync(join(tmpdir(), 'retail-backup-')), 'backup');
    cleanups.push(() => rmSync(backupDir, { recursive: true, force: true }));

    // Created while the store is offline; the backup holds it as a pending creation.
    pair.proxy.setMode('down');
    expect((await pair.write.post('/products', { name: 'Bergkäse', price: 2450, taxCategory: '2.6' })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.state === 'offline' && s.pending === 1);
    expect((await runCli(pair.local.dataDir, ['backup', backupDir, '--json'])).status).toBe(0);

    // Back online: pushed; a later push acknowledges it, and the hub's purge forgets its kept answer.
    pair.proxy.setMode('pass');
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    expect(await named(pair.up, 'Bergkäse')).toHaveLength(1);
    expect((await pair.write.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' })).status).toBe(200);
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    const purge = await runCli(pair.upstream.dataDir, ['purge', 'run', '--json']);
    expect(purge.status).toBe(0);
    expect(purge.json.answers).toBeGreaterThanOrEqual(1);
    const kept = pair.upstream.sqlite().prepare("SELECT count(*) FROM idempotency_keys WHERE key LIKE 'sync-%'").pluck().get();
    // Only the answer to the last creation, which nothing acknowledged yet, is still kept.
    expect(kept).toBe(1);

    // The restore puts the creation back in the queue, under its old key.
    await pair.local.stop();
    const restore = await runCli(pair.local.dataDir, ['restore', backupDir, '--replace', '--json']);
    expect(restore.status, restore.stderr).toBe(0);
    const since = new Date().toISOString();
    const restored: TestServer = await startTestServer({ dataDir: pair.local.dataDir, sync: FAST_SYNC });
    cleanups.push(() => restored.stop());
    const write = api(restored.url, pair.org.writeKey);
    await waitForSync(write, pulledSince(since));

    expect(await named(pair.up, 'Bergkäse')).toHaveLength(1);
    expect(await named(write, 'Bergkäse')).toHaveLength(1);
    expect(await named(write, 'Brot')).toHaveLength(1);

    // A second store of the chain pulls the same single record.
    const other = await startTestServer({ sync: FAST_SYNC });
    cleanups.push(() => other.destroy());
    const otherOrg = other.createOrg(['identity-logs']);
    configureSync(other, otherOrg.id, { url: pair.upstream.url, key: pair.upOrg.writeKey });
    const otherWrite = api(other.url, otherOrg.writeKey);
    await waitForSync(otherWrite, (s) => s.state === 'idle' && s.lastPullAt !== null);
    expect(await named(otherWrite, 'Bergkäse')).toHaveLength(1);
  }, 120_000);
});
