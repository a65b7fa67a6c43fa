import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, createdId as created } from './support/api.js';
import { drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair();
});
afterAll(async () => {
  await pair.destroy();
});

describe('two stores of a store PC number their sales the same way', () => {
  it('records both sales here and upstream, each once, at its own store', async () => {
    const station = await created(pair.write, '/stores', { name: 'Bahnhof' });
    const square = await created(pair.write, '/stores', { name: 'Marktplatz' });
    const milk = await created(pair.write, '/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6' });
    const kioskOf = async (store: string) => api(pair.local.url, (await pair.write.post('/keys', { kind: 'kiosk', store })).body.key);
    const sale = (store: string, quantity: number) => ({ store, orderId: 'till-1-0001', products: [{ productId: milk, quantity }] });
    const since = new Date().toISOString();
    const atStation = await created(await kioskOf(station), '/orders', sale(station, 1));
    const atSquare = await created(await kioskOf(square), '/orders', sale(square, 2));
    expect(atSquare).not.toBe(atStation);
    await waitForSync(pair.write, drainedSince(since));

    const upstream = (await collectPages(pair.up, ALL_ORDERS)).items.filter((o) => o.orderId === 'till-1-0001');
    const upStores = (await collectPages(pair.up, '/stores')).items;
    const nameOf = (id: string) => upStores.find((s) => s.id === id)?.name;
    expect(upstream.map((o) => [nameOf(o.store), o.price]).sort()).toEqual([
      ['Bahnhof', 195],
      ['Marktplatz', 390],
    ]);
  });
});
