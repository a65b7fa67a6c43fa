import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../main/services/clock.js';
import type { Api } from './support/api.js';
import { pulledSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { syncRun } from './support/upstream-catalog.js';

const created = async (client: Api, path: string, body: unknown): Promise<string> => {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
/** The product as both ends have it, without the fields each end keeps for itself. */
const shared = (product: Record<string, unknown>) => {
  const { lastupdate: _lastupdate, instance: _instance, ...rest } = product;
  return rest;
};

describe('pulling what changed upstream, by the change feed', () => {
  let pair: SyncPair;
  const nextPull = (p: SyncPair) => waitForSync(p.write, pulledSince(new Date().toISOString()));
  beforeAll(async () => {
    pair = await startSyncPair({ pullIntervalSeconds: 1 });
  });
  afterAll(async () => {
    await pair.destroy();
  });

  it('brings an upstream create, rename, price change and delete within one pull interval, other fields untouched', async () => {
    const category = await created(pair.up, '/categories', { name: 'Milch' });
    const id = await created(pair.up, '/products', {
      name: 'Vollmilch',
      price: 160,
      taxCategory: '2.6',
      barcode: '7610000000011',
      category,
      description: 'Frisch vom Hof',
    });
    await nextPull(pair);
    expect(shared((await pair.write.get(`/products/${id}`)).body.data)).toEqual(shared((await pair.up.get(`/products/${id}`)).body.data));

    for (const change of [{ name: 'Bio-Vollmilch' }, { price: 175 }]) {
      const before = (await pair.write.get(`/products/${id}`)).body.data;
      expect((await pair.up.post(`/products/${id}`, change)).status).toBe(200);
      await nextPull(pair);
      const after = (await pair.write.get(`/products/${id}`)).body.data;
      expect(shared(after)).toEqual(shared({ ...before, ...change }));
    }

    expect((await pair.up.delete(`/products/${id}`)).status).toBe(200);
    await nextPull(pair);
    const deleted = (await pair.write.get(`/products/${id}`)).body.data;
    expect(deleted).toMatchObject({ deleted: true, name: 'Bio-Vollmilch', price: 175, description: 'Frisch vom Hof' });
    expect((await pair.write.get(`/categories/${category}`)).body.data).toMatchObject({ name: 'Milch' });
    expect((await pair.write.get('/sync')).body.data).toMatchObject({ pending: 0, parked: 0, state: 'idle' });
  });
});

describe('a change made upstream in the same millisecond as the last pull read the feed', () => {
  let pair: SyncPair;
  let frozen = Date.now();
  const clock: Clock = { now: () => new Date(frozen) };
  beforeAll(async () => {
    pair = await startSyncPair({ pullIntervalSeconds: 1, upstream: { clock } });
  });
  afterAll(async () => {
    await pair.destroy();
  });

  it('is read by the next pull', async () => {
    frozen = Date.now();
    const first = await created(pair.up, '/products', { name: 'Brot', price: 300, taxCategory: '2.6' });
    // A pull reads the feed while the upstream's clock stands at the instant of that write.
    await syncRun(pair);
    expect((await pair.write.get(`/products/${first}`)).status).toBe(200);
    // Same instant upstream: a new product and a change, both stamped exactly as the rows the pull already read.
    const second = await created(pair.up, '/products', { name: 'Zopf', price: 450, taxCategory: '2.6' });
    expect((await pair.up.post(`/products/${first}`, { price: 320 })).status).toBe(200);
    expect((await pair.up.get(`/products/${second}`)).body.data.lastupdate).toBe(new Date(frozen).toISOString());
    await syncRun(pair);
    expect((await pair.write.get(`/products/${second}`)).body.data).toMatchObject({ name: 'Zopf', price: 450 });
    expect((await pair.write.get(`/products/${first}`)).body.data).toMatchObject({ name: 'Brot', price: 320 });
  });
});

describe('a v1-only upstream, without a change feed', () => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await startSyncPair({ pullIntervalSeconds: 1, fullIntervalSeconds: 2 });
    // The proxy hides the upstream's OpenAPI document: nothing tells the store PC of a feed.
    pair.proxy.setMode('missing', { only: (method, path) => method === 'GET' && path === '/openapi.json' });
  });
  afterAll(async () => {
    await pair.destroy();
  });

  it('converges through full reconciliation, which reads plain lists and removes what the upstream no longer lists', async () => {
    await syncRun(pair, { full: true });
    const gone = await created(pair.up, '/products', { name: 'Alt', price: 100, taxCategory: '8.1' });
    const kept = await created(pair.up, '/products', { name: 'Käse', price: 500, taxCategory: '2.6' });
    const since = new Date().toISOString();
    await waitForSync(pair.write, (s) => s.lastFullPullAt !== null && s.lastFullPullAt > since && s.state === 'idle');
    expect((await pair.write.get(`/products/${gone}`)).body.data).toMatchObject({ name: 'Alt', deleted: false });

    expect((await pair.up.delete(`/products/${gone}`)).status).toBe(200);
    expect((await pair.up.post(`/products/${kept}`, { name: 'Bergkäse' })).status).toBe(200);
    const later = new Date().toISOString();
    await waitForSync(pair.write, (s) => s.lastFullPullAt !== null && s.lastFullPullAt > later && s.state === 'idle');
    expect((await pair.write.get(`/products/${gone}`)).body.data.deleted).toBe(true);
    expect((await pair.write.get(`/products/${kept}`)).body.data).toMatchObject({ name: 'Bergkäse', price: 500 });
    // No walk asked for a feed the upstream never offered.
    expect(Object.keys(pair.proxy.listReads()).sort()).toEqual(['/categories', '/identity-logs/blocked', '/products', '/stores', '/suppliers']);
  });
});
