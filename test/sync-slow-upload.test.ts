import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages } from './support/api.js';
import { multipartBody, pngOfExactSize } from './support/images.js';
import { FAST_SYNC, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

// A 1 s budget for a call, and uploads budgeted for a line of 50 KB/s: a
// 200 KB image gets 5 s. The fault proxy plays the slow line.
const IMAGE_BYTES = 200_000;
const onlyUploads = (method: string, path: string) => method === 'POST' && path.endsWith('/image');

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ pullIntervalSeconds: 1, local: { sync: { ...FAST_SYNC, timeoutMs: 1000, uploadBytesPerSecond: 50_000 } } });
});
afterAll(async () => {
  await pair.destroy();
});

const created = async (path: string, body: unknown): Promise<string> => {
  const res = await pair.write.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
const upload = async (productId: string) => {
  const { body, contentType } = multipartBody(await pngOfExactSize(IMAGE_BYTES), 'image/png');
  const res = await pair.write.request('POST', `/products/${productId}/image`, { body, headers: { 'content-type': contentType } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const upProduct = async (barcode: string) => (await collectPages(pair.up, `/products?barcode=${barcode}`)).items[0];

describe('a large image on a slow line (field condition 4)', () => {
  it('gets a time budget that follows its size and arrives', async () => {
    const product = await created('/products', { name: 'Poster', price: 1500, taxCategory: '8.1', barcode: 'slow-poster' });
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    // 200 KB at 100 KB/s: 2 s, twice the time a JSON call gets.
    pair.proxy.setMode('throttle', { bytesPerSecond: 100_000, only: onlyUploads });
    const since = new Date().toISOString();
    await upload(product);
    expect(await waitForSync(pair.write, drainedSince(since), 30_000)).toMatchObject({ pending: 0, parked: 0 });
    expect((await upProduct('slow-poster')).imageUrl).toMatch(/\.png$/);
  });

  it('does not hold up later writes of other records or the pull; later writes of its own product wait behind it', async () => {
    const { write, up, proxy } = pair;
    const poster = await created('/products', { name: 'Banner', price: 900, taxCategory: '8.1', barcode: 'slow-banner' });
    await waitForSync(write, drainedSince(new Date().toISOString()));
    // 200 KB at 6 KB/s: 33 s, past the budgets of its first three attempts (5, 10 and 20 s),
    // so the upload keeps waiting for at least 35 s, whatever the load on the machine.
    proxy.setMode('throttle', { bytesPerSecond: 6_000, only: onlyUploads });
    await upload(poster);
    expect((await write.post(`/products/${poster}`, { price: 950 })).status).toBe(200);
    await created('/products', { name: 'Flyer', price: 50, taxCategory: '8.1', barcode: 'slow-flyer' });
    await created('/products', { name: 'Karte', price: 200, taxCategory: '8.1', barcode: 'slow-card' });
    expect((await up.post('/categories', { name: 'Von HQ' })).status).toBe(200);

    const since = new Date().toISOString();
    const status = await waitForSync(write, (s) => s.lastPullAt !== null && s.lastPullAt > since && s.pending === 2, 60_000);
    expect(status.parked).toBe(0);
    expect(await upProduct('slow-flyer')).toMatchObject({ name: 'Flyer' });
    expect(await upProduct('slow-card')).toMatchObject({ name: 'Karte' });
    expect((await collectPages(write, '/categories')).items.map((c) => c.name)).toContain('Von HQ');
    expect(await upProduct('slow-banner')).toMatchObject({ price: 900, imageUrl: '' });

    proxy.setMode('pass');
    const healed = new Date().toISOString();
    expect((await write.post('/suppliers', { name: 'Druckerei' })).status).toBe(200);
    // An attempt already under way on the slow line runs out its budget first.
    expect(await waitForSync(write, drainedSince(healed), 90_000)).toMatchObject({ pending: 0, parked: 0 });
    expect(await upProduct('slow-banner')).toMatchObject({ price: 950, imageUrl: expect.stringMatching(/\.png$/) });
  }, 180_000);

  it('gets twice the time on each next attempt, so a line slower than the budget still carries it', async () => {
    const { write, proxy } = pair;
    const product = await created('/products', { name: 'Wimpel', price: 300, taxCategory: '8.1', barcode: 'slow-pennant' });
    await waitForSync(write, drainedSince(new Date().toISOString()));
    // 200 KB at 30 KB/s: about 7 s, past the first attempt's 5 s but within the second's 9 s.
    proxy.setMode('throttle', { bytesPerSecond: 30_000, only: onlyUploads });
    await upload(product);
    const attempts = () => (pair.local.sqlite().prepare("SELECT attempts FROM outbox WHERE resource = 'product-image' ORDER BY seq DESC").get() as { attempts: number }).attempts;
    const ends = Date.now() + 20_000;
    while (attempts() === 0 && Date.now() < ends) await new Promise((r) => setTimeout(r, 50));
    expect(attempts()).toBe(1);
    const since = new Date().toISOString();
    expect((await write.post('/suppliers', { name: 'Näherei' })).status).toBe(200);
    expect(await waitForSync(write, drainedSince(since), 30_000)).toMatchObject({ pending: 0, parked: 0 });
    expect(await upProduct('slow-pennant')).toMatchObject({ imageUrl: expect.stringMatching(/\.png$/) });
    proxy.setMode('pass');
  });
});
