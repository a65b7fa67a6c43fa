import Database from 'better-sqlite3';
import { cpSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { idempotencyKeyOf } from '../main/sync/push.js';
import { fullPullJitterMs, MAX_FULL_PULL_JITTER_MS } from '../main/sync/full-pull-jitter.js';
import { api, collectPages, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { makeDataDir, startTestServer, type TestServer } from './support/server.js';
import { drainedSince, FAST_SYNC, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z';
const folders: string[] = [];
const newFolder = () => {
  const dir = makeDataDir();
  folders.push(dir);
  return dir;
};
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const installationOf = (server: TestServer): string => server.sqlite().prepare('SELECT id FROM installation').pluck().get() as string;

async function sell(client: Api, store: string, orderIds: string[]): Promise<void> {
  for (const orderId of orderIds) {
    const res = await client.post('/orders', { store, orderId, products: [{ productId: 'bread', quantity: 1, title: 'Brot', price: 450, taxRate: 0.026 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

const drained = (client: Api) => waitForSync(client, (s) => s.pending === 0 && s.state === 'idle' && s.lastPushAt !== null);
const upstreamOrderIds = async (pair: SyncPair) => (await collectPages(pair.up, ALL_ORDERS)).items.map((o) => o.orderId as string).sort();

describe('restores and copied data folders', () => {
  it('back up, sell, push, restore, sell: every sale reaches the upstream once and nothing is parked', async () => {
    const pair = await startSyncPair();
    cleanups.push(() => pair.destroy());
    const store = (await pair.write.post('/stores', { name: 'Hofladen' })).body.id as string;
    // Pending when the backup is made: the original pushes them later, the restored copy pushes them again.
    pair.proxy.setMode('down');
    await sell(pair.write, store, ['before-1', 'before-2']);
    expect((await pair.write.post('/products', { name: 'Apfel', price: 120, taxCategory: '2.6', barcode: 'restore-apple' })).status).toBe(200);
    const backupDir = join(newFolder(), 'backup');
    expect((await runCli(pair.local.dataDir, ['backup', backupDir, '--json'])).status).toBe(0);
    pair.proxy.setMode('pass');
    await sell(pair.write, store, ['after-backup-1', 'after-backup-2', 'after-backup-3']);
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    const before = installationOf(pair.local);

    await pair.local.stop();
    const restored = await runCli(pair.local.dataDir, ['restore', backupDir, '--replace', '--json']);
    expect(restored.status).toBe(0);
    expect(restored.json.installation).toMatch(/^[0-9a-f]{32}$/);
    expect(restored.json.installation).not.toBe(before);
    pair.local = await startTestServer({ dataDir: pair.local.dataDir, sync: FAST_SYNC });
    expect(installationOf(pair.local)).toBe(restored.json.installation);
    const write = api(pair.local.url, pair.org.writeKey);
    await sell(write, store, ['after-restore-1', 'after-restore-2', 'after-restore-3']);
    const status = await waitForSync(write, drainedSince(new Date().toISOString()));
    expect(status.parked).toBe(0);
    expect(await upstreamOrderIds(pair)).toEqual(
      ['after-backup-1', 'after-backup-2', 'after-backup-3', 'after-restore-1', 'after-restore-2', 'after-restore-3', 'before-1', 'before-2'],
    );
    // The product queued before the backup was created upstream once, though both copies sent it.
    expect((await collectPages(pair.up, '/products?barcode=restore-apple')).items).toHaveLength(1);
  });

  it('a backup taken while a sync round held its lease: the restored copy pushes at once, not once the lease ran out', async () => {
    const pair = await startSyncPair();
    cleanups.push(() => pair.destroy());
    const store = (await pair.write.post('/stores', { name: 'Kiosk am See' })).body.id as string;
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    const backupDir = join(newFolder(), 'backup');
    expect((await runCli(pair.local.dataDir, ['backup', backupDir, '--json'])).status).toBe(0);
    // As the backup would hold it had a round been running: a live process (this one) for ten more minutes.
    const copy = new Database(join(backupDir, DATABASE_FILE));
    copy.prepare('UPDATE sync_config SET lease_owner = ?, lease_until = ?').run(`${process.pid}:round-at-backup`, new Date(Date.now() + 600_000).toISOString());
    copy.close();

    await pair.local.stop();
    expect((await runCli(pair.local.dataDir, ['restore', backupDir, '--replace', '--json'])).status).toBe(0);
    pair.local = await startTestServer({ dataDir: pair.local.dataDir, sync: FAST_SYNC });
    const write = api(pair.local.url, pair.org.writeKey);
    await sell(write, store, ['after-restore']);
    expect((await waitForSync(write, drainedSince(new Date().toISOString()))).parked).toBe(0);
    expect(await upstreamOrderIds(pair)).toEqual(['after-restore']);
  });

  it('two servers started from one copied folder sell and push, and nothing collides', async () => {
    const pair = await startSyncPair();
    cleanups.push(() => pair.destroy());
    const store = (await pair.write.post('/stores', { name: 'Vorlage' })).body.id as string;
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    const template = installationOf(pair.local);
    await pair.local.stop();

    const tills: TestServer[] = [];
    for (const name of ['till-1', 'till-2']) {
      const copy = join(newFolder(), name);
      cpSync(pair.local.dataDir, copy, { recursive: true });
      const till = await startTestServer({ dataDir: copy, sync: FAST_SYNC });
      cleanups.push(() => till.stop());
      tills.push(till);
    }
    const ids = tills.map(installationOf);
    expect(new Set([template, ...ids]).size).toBe(3);
    await Promise.all(tills.map((till, n) => sell(api(till.url, pair.org.writeKey), store, [`till-${n + 1}-a`, `till-${n + 1}-b`, `till-${n + 1}-c`])));
    for (const till of tills) {
      const status = await drained(api(till.url, pair.org.writeKey));
      expect(status.parked).toBe(0);
    }
    expect(await upstreamOrderIds(pair)).toEqual(['till-1-a', 'till-1-b', 'till-1-c', 'till-2-a', 'till-2-b', 'till-2-c']);
  });

  it('keeps the id when the folder is moved on the same disk or the server restarts, and renews it for a copy', async () => {
    const server = await startTestServer({ dataDir: join(newFolder(), 'data') });
    const id = installationOf(server);
    const restarted = await server.restart();
    expect(installationOf(restarted)).toBe(id);
    await restarted.stop();

    const moved = join(newFolder(), 'moved');
    renameSync(restarted.dataDir, moved);
    const atNewPlace = await startTestServer({ dataDir: moved });
    cleanups.push(() => atNewPlace.stop());
    expect(installationOf(atNewPlace)).toBe(id);

    const copied = join(newFolder(), 'copied');
    await atNewPlace.stop();
    cpSync(moved, copied, { recursive: true });
    const copy = await startTestServer({ dataDir: copied });
    cleanups.push(() => copy.stop());
    expect(installationOf(copy)).not.toBe(id);
    expect(copy.sqlite().prepare('SELECT reason FROM installation').pluck().get()).toBe('copied-folder');
  });
});

describe('idempotency keys of outbox entries', () => {
  it('name the installation an entry was written under; entries from before installations had ids keep the old key', () => {
    expect(idempotencyKeyOf('org1', { seq: 7, retries: 0, installation: 'ab12' })).toBe('sync-org1-ab12-7');
    expect(idempotencyKeyOf('org1', { seq: 7, retries: 2, installation: 'ab12' })).toBe('sync-org1-ab12-7-r2');
    expect(idempotencyKeyOf('org1', { seq: 7, retries: 0, installation: null })).toBe('sync-org1-7');
    expect(idempotencyKeyOf('org1', { seq: 7, retries: 1, installation: null })).toBe('sync-org1-7-r1');
  });
});

describe('full-pull jitter', () => {
  it("waits this installation's own delay beyond the full interval before the next full pull", async () => {
    let ahead = 0;
    const clock = { now: () => new Date(Date.now() + ahead) };
    const pair = await startSyncPair({ local: { clock, sync: FAST_SYNC }, pullIntervalSeconds: 60, fullIntervalSeconds: 86_400 });
    cleanups.push(() => pair.destroy());
    const first = await waitForSync(pair.write, (s) => s.state === 'idle' && s.lastFullPullAt !== null);
    const delay = fullPullJitterMs(installationOf(pair.local), 86_400);
    const dayAfter = Date.parse(first.lastFullPullAt) + 86_400_000;

    // Halfway through its delay: the pull that falls due reads only what changed.
    ahead = dayAfter + delay / 2 - Date.now();
    const halfway = clock.now().toISOString();
    const changes = await waitForSync(pair.write, (s) => s.state === 'idle' && s.lastPullAt !== null && s.lastPullAt >= halfway);
    expect(changes.lastFullPullAt).toBe(first.lastFullPullAt);

    // Past it (and past the pull interval): the next pull reads everything.
    ahead = dayAfter + delay + 61_000 - Date.now();
    const past = clock.now().toISOString();
    const full = await waitForSync(pair.write, (s) => s.state === 'idle' && s.lastFullPullAt !== null && s.lastFullPullAt >= past);
    expect(full.lastPullAt).toBe(full.lastFullPullAt);
  });


  it('spreads installations over up to an hour of the daily full pull, the same delay for the same id every time', () => {
    const ids = Array.from({ length: 2000 }, (_, n) => `installation-${n}`);
    const delays = ids.map((id) => fullPullJitterMs(id, 86_400));
    expect(delays.map((_, n) => fullPullJitterMs(ids[n]!, 86_400))).toEqual(delays);
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThan(MAX_FULL_PULL_JITTER_MS);
    // Every six minutes of the hour gets some of the stores.
    const tenths = new Set(delays.map((d) => Math.floor(d / 360_000)));
    expect(tenths.size).toBe(10);
    // A short full interval gets a 24th of it.
    expect(Math.max(...ids.map((id) => fullPullJitterMs(id, 240)))).toBeLessThan(10_000);
  });
});
