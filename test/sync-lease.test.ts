import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGES_DIR, openImageStore } from '../main/images/store.js';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { createSync } from '../main/sync/index.js';
import { runRound } from '../main/sync/round.js';
import { collectPages } from './support/api.js';
import { multipartBody, pngOfExactSize } from './support/images.js';
import { FAST_SYNC, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { openSecretBox } from '../main/security/secret-box.js';

// A lease of 400 ms, and an image that takes about 3 s to go up: the round outlives its lease many times over.
const LEASE_MS = 400;

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ local: { sync: { ...FAST_SYNC, timeoutMs: 5000, leaseMs: LEASE_MS } } });
});
afterAll(async () => {
  await pair.destroy();
});

/** A second round runner over the same data folder, with its own connection and lease owner, as `sync run` in another process has. */
function secondRunner() {
  const db = openDatabase(join(pair.local.dataDir, DATABASE_FILE));
  const images = openImageStore(join(pair.local.dataDir, IMAGES_DIR));
  const services = createServices({ db, clock: systemClock });
  const sync = createSync({
    db,
    clock: systemClock,
    logger: pino({ level: 'silent' }),
    services,
    secrets: openSecretBox(pair.local.dataDir),
    imagePath: (file) => images.pathOf(file),
    productListeners: [],
    options: { timeoutMs: 5000, leaseMs: LEASE_MS },
  });
  return { run: () => runRound(sync.roundDeps, pair.org.id), close: () => db.close() };
}

describe('a round that runs longer than its lease (field condition 5)', () => {
  it('keeps the lease, so no second round runs at once and nothing is parked', async () => {
    const { write, proxy } = pair;
    const res = await write.post('/products', { name: 'Plakat', price: 2000, taxCategory: '8.1', barcode: 'lease-poster' });
    await waitForSync(write, drainedSince(new Date().toISOString()));
    proxy.setMode('throttle', { bytesPerSecond: 100_000, only: (method, path) => method === 'POST' && path.endsWith('/image') });
    const { body, contentType } = multipartBody(await pngOfExactSize(300_000), 'image/png');
    const since = new Date().toISOString();
    expect((await write.request('POST', `/products/${res.body.id}/image`, { body, headers: { 'content-type': contentType } })).status).toBe(200);
    const ends = Date.now() + 10_000;
    while (proxy.stats().faulted === 0 && Date.now() < ends) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 3 * LEASE_MS));

    const second = secondRunner();
    try {
      expect((await second.run()).failure).toBe('busy');
    } finally {
      second.close();
    }
    expect(await waitForSync(write, drainedSince(since), 30_000)).toMatchObject({ pending: 0, parked: 0 });
    const [product] = (await collectPages(pair.up, '/products?barcode=lease-poster')).items;
    expect(product.imageUrl).toMatch(/\.png$/);
  });
});
