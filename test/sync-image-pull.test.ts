import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { makeImage, multipartBody } from './support/images.js';
import { drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { setUpstreamFeatures } from './support/upstream-catalog.js';

// Field condition 1: a queued image upload must survive every pull until it is
// pushed, and the store keeps its own copy of the picture afterwards.
let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ intervalSeconds: 1, features: ['identity-logs', 'barcode-aliases'] });
});
afterAll(async () => {
  await pair.destroy();
});

const nextPull = () => waitForSync(pair.write, drainedSince(new Date().toISOString()));
/** A pull that completed after now, whatever still waits in the queue. */
const pulled = (since = new Date().toISOString()) => waitForSync(pair.write, (s) => s.state === 'idle' && s.lastPullAt !== null && s.lastPullAt > since);
const created = async (body: Record<string, unknown>): Promise<string> => {
  const res = await pair.write.post('/products', { taxCategory: '8.1', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
const upload = async (productId: string, picture: Buffer): Promise<string> => {
  const { body, contentType } = multipartBody(picture, 'image/png');
  const res = await pair.write.request('POST', `/products/${productId}/image`, { body, headers: { 'content-type': contentType } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.imageUrl as string;
};
/** The bytes an image URL serves (images are public, no key). */
const picture = async (url: string): Promise<{ status: number; bytes: Buffer }> => {
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
};
/** The upstream's copy of a product created at the store, found by its barcode. */
const upstreamProduct = async (barcode: string) => (await pair.up.get(`/products?barcode=${barcode}`)).body.data[0];
const imageEntry = (productId: string) =>
  pair.local.sqlite().prepare("SELECT state, upstream_status FROM outbox WHERE resource = 'product-image' AND resource_id = ? ORDER BY seq DESC").get(productId);

describe('an image upload and the pull (field condition 1)', () => {
  it('keeps a picture that waits behind a parked change of its product through pulls, pushes it, and keeps the local copy', async () => {
    const mug = await created({ name: 'Tasse', price: 1200, barcode: 'img-mug' });
    await nextPull();
    await setUpstreamFeatures(pair, { disable: ['barcode-aliases'] });
    // The upstream refuses barcode aliases: this change is parked, and the product's later writes wait behind it.
    expect((await pair.write.post(`/products/${mug}`, { barcodeAliases: [{ code: 'img-mug-2' }] })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.parked === 1);
    const png = await makeImage('png', { width: 40, height: 30 });
    const localUrl = await upload(mug, png);
    // HQ renames the product meanwhile, so every pull rewrites it.
    const upMug = (await upstreamProduct('img-mug')).id as string;
    expect((await pair.up.post(`/products/${upMug}`, { name: 'Kaffeetasse' })).status).toBe(200);
    await pulled();
    await pulled();

    const waiting = (await pair.write.get(`/products/${mug}`)).body.data;
    expect(waiting).toMatchObject({ name: 'Kaffeetasse', imageUrl: localUrl });
    expect(await picture(localUrl)).toEqual({ status: 200, bytes: png });
    expect(imageEntry(mug)).toEqual({ state: 'pending', upstream_status: null });

    await setUpstreamFeatures(pair, { enable: ['barcode-aliases'] });
    expect(await runCli(pair.local.dataDir, ['sync', 'retry', pair.org.id, '--all', '--json'])).toMatchObject({ status: 0, json: { retried: 1 } });
    await waitForSync(pair.write, (s) => s.parked === 0 && s.pending === 0);
    await nextPull();

    expect(imageEntry(mug)).toEqual({ state: 'pushed', upstream_status: 200 });
    const upstreamUrl = (await upstreamProduct('img-mug')).imageUrl as string;
    expect(upstreamUrl.startsWith(pair.upstream.url)).toBe(true);
    expect(await picture(upstreamUrl)).toEqual({ status: 200, bytes: png });
    const local = (await pair.write.get(`/products/${mug}`)).body.data;
    expect(local).toMatchObject({ name: 'Kaffeetasse', imageUrl: localUrl, barcodeAliases: [{ code: 'img-mug-2' }] });
    expect(await picture(localUrl)).toEqual({ status: 200, bytes: png });
  });

  it('keeps a picture uploaded while a long pull runs', async () => {
    const plate = await created({ name: 'Teller', price: 900, barcode: 'img-plate' });
    await nextPull();
    const upPlate = (await upstreamProduct('img-plate')).id as string;
    expect((await pair.up.post(`/products/${upPlate}`, { name: 'Suppenteller' })).status).toBe(200);
    // Product pages come slowly: the upload lands between the read of the page and its application.
    pair.proxy.setMode('delay', { delayMs: 1500, only: (method, path) => method === 'GET' && path.startsWith('/products') });
    const pulling = new Date().toISOString();
    await waitForSync(pair.write, (s) => s.state === 'pulling');
    const png = await makeImage('png', { width: 50, height: 20 });
    const localUrl = await upload(plate, png);
    await pulled(pulling);
    pair.proxy.setMode('pass');
    await waitForSync(pair.write, (s) => s.pending === 0);
    await nextPull();

    expect((await pair.write.get(`/products/${plate}`)).body.data).toMatchObject({ name: 'Suppenteller', imageUrl: localUrl });
    expect(await picture(localUrl)).toEqual({ status: 200, bytes: png });
    const upstreamUrl = (await upstreamProduct('img-plate')).imageUrl as string;
    expect(await picture(upstreamUrl)).toEqual({ status: 200, bytes: png });
  });

  it('follows a picture HQ sets later: the local product takes the upstream one', async () => {
    const bowl = await created({ name: 'Schale', price: 700, barcode: 'img-bowl' });
    const first = await makeImage('png', { width: 20, height: 20 });
    const localUrl = await upload(bowl, first);
    await waitForSync(pair.write, (s) => s.pending === 0);
    await nextPull();
    expect((await pair.write.get(`/products/${bowl}`)).body.data.imageUrl).toBe(localUrl);

    const second = await makeImage('png', { width: 30, height: 20 });
    const { body, contentType } = multipartBody(second, 'image/png');
    const upBowl = (await upstreamProduct('img-bowl')).id as string;
    const hq = await pair.up.request('POST', `/products/${upBowl}/image`, { body, headers: { 'content-type': contentType } });
    expect(hq.status).toBe(200);
    await nextPull();
    expect((await pair.write.get(`/products/${bowl}`)).body.data.imageUrl).toBe(hq.body.data.imageUrl);
    // The store's own copy of the old picture is released once nothing names it.
    expect((await picture(localUrl)).status).toBe(404);
  });
});
