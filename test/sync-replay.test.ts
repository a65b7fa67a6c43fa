import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Clock } from '../main/services/clock.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { api, collectPages } from './support/api.js';
import { drainedSince, pulledSince, waitForSync } from './support/sync.js';
import { syncRun } from './support/upstream-catalog.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import type { TestServer } from './support/server.js';

/** The upstream's clock, set forward by the test as days pass. */
let ahead = 0;
const upstreamClock: Clock = { now: () => new Date(Date.now() + ahead) };

let pair: SyncPair;
let restarted: TestServer | undefined;
afterAll(async () => {
  await restarted?.destroy();
  await pair.destroy();
});

describe('an update sent again after its mark was lost and a day and more went by (field condition: replays overwriting newer data)', () => {
  it('leaves the change the upstream made in between', async () => {
    pair = await startSyncPair({ upstream: { clock: upstreamClock } });
    const { write, up } = pair;
    const created = await write.post('/products', { name: 'Alpkäse', price: 1200, taxCategory: '2.6', barcode: 'replay-1' });
    expect(created.status).toBe(200);
    // A pull first, so the store knows how far it has seen the upstream's products.
    await syncRun(pair);
    expect((await write.post(`/products/${created.body.id}`, { price: 1300 })).status).toBe(200);
    await waitForSync(write, drainedSince(new Date().toISOString()));
    const upId = (await collectPages(up, '/products?barcode=replay-1')).items[0].id as string;
    expect((await up.get(`/products/${upId}`)).body.data.price).toBe(1300);

    // The power cut: the update's pushed mark, committed without an fsync, is gone.
    await pair.local.stop();
    const local = openDatabase(join(pair.local.dataDir, DATABASE_FILE));
    local.prepare("UPDATE outbox SET state = 'pending', done_at = NULL, upstream_status = NULL WHERE resource = 'product' AND operation = 'update'").run();
    local.close();
    // Switched off for 25 hours, while head office changed the price.
    ahead = 25 * 3600_000;
    expect((await up.post(`/products/${upId}`, { price: 1450 })).status).toBe(200);

    restarted = await pair.local.restart();
    const write2 = api(restarted.url, pair.org.writeKey);
    const since = new Date().toISOString();
    await waitForSync(write2, drainedSince(since));
    expect((await up.get(`/products/${upId}`)).body.data.price).toBe(1450);
    expect((await write2.get('/sync')).body.data).toMatchObject({ pending: 0, parked: 0 });
    // The store takes head office's price with its next pull.
    const runAt = new Date().toISOString();
    await syncRun({ ...pair, local: restarted, write: write2 });
    await waitForSync(write2, pulledSince(runAt));
    expect((await write2.get(`/products/${created.body.id}`)).body.data.price).toBe(1450);
  }, 90_000);
});
