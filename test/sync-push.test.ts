import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages } from './support/api.js';
import { makeImage, multipartBody } from './support/images.js';
import { drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair();
});
afterAll(async () => {
  await pair.destroy();
});

const created = async (path: string, body: unknown): Promise<string> => {
  const res = await pair.write.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};

const upstreamIdOf = (kind: string, localId: string): string | undefined =>
  (pair.local.sqlite().prepare('SELECT upstream_id FROM sync_ids WHERE kind = ? AND local_id = ?').get(kind, localId) as { upstream_id: string } | undefined)
    ?.upstream_id;

describe('a day offline, then the line comes back', () => {
  it('brings every write to the upstream exactly once, with ids mapped and references rewritten', async () => {
    const { write, up, proxy } = pair;
    proxy.setMode('down');
    const store = await created('/stores', { name: 'Filiale Bahnhof' });
    const supplier = await created('/suppliers', { name: 'Molkerei' });
    const category = await created('/categories', { name: 'Milch', allowStore: [store] });
    const products: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      products.push(await created('/products', { name: `Milch ${i}`, price: 100 + i, taxCategory: '2.6', barcode: `76100${i}`, category, supplier }));
    }
    for (const id of products.slice(0, 4)) expect((await write.post(`/products/${id}`, { price: 999 })).status).toBe(200);
    for (const id of products.slice(10)) expect((await write.delete(`/products/${id}`)).status).toBe(200);
    const { body, contentType } = multipartBody(await makeImage('png'), 'image/png');
    expect((await write.request('POST', `/products/${products[0]}/image`, { body, headers: { 'content-type': contentType } })).status).toBe(200);
    const orders: string[] = [];
    for (let i = 0; i < 200; i += 1) {
      const lines = [{ productId: products[i % 10] as string, quantity: 1 + (i % 3) }];
      orders.push(await created('/orders', { store, products: lines, orderId: i % 2 === 0 ? `till-1-${i}` : undefined }));
    }
    expect((await write.post(`/orders/${orders[0]}`, { paymentState: 'refunded' })).status).toBe(200);
    for (let i = 0; i < 5; i += 1) await created('/identity-logs', { access: i % 2 === 0, store, source: 'kiosk' });
    const blocked = await created('/identity-logs/blocked', { comment: 'Fake ID', first_name: 'Max', last_name: 'Muster' });
    expect((await write.post(`/identity-logs/blocked/${blocked}`, { comment: 'Fake ID (confirmed)', first_name: 'Max', last_name: 'Muster' })).status).toBe(200);

    const offline = await waitForSync(write, (s) => s.state === 'offline');
    expect(offline.pending).toBe(1 + 1 + 1 + 12 + 4 + 2 + 1 + 200 + 1 + 5 + 2);
    expect(offline.lastError).toMatch(/^upstream not reachable/);

    const since = new Date().toISOString();
    proxy.setMode('pass');
    const done = await waitForSync(write, drainedSince(since), 90_000);
    expect(done).toMatchObject({ configured: true, state: 'idle', pending: 0, parked: 0, lastError: null, oldestPendingAt: null });

    const upStores = (await collectPages(up, '/stores?limit=5000')).items;
    expect(upStores.map((s) => s.name)).toEqual(['Filiale Bahnhof']);
    const upStore = upStores[0].id as string;
    expect(upstreamIdOf('store', store)).toBe(upStore);
    const upCategory = upstreamIdOf('category', category) as string;
    expect((await up.get(`/categories/${upCategory}`)).body.data).toMatchObject({ name: 'Milch', allowStore: [upStore] });
    const upSupplier = upstreamIdOf('supplier', supplier) as string;

    const upProducts = (await collectPages(up, '/products?limit=5000')).items;
    expect(upProducts).toHaveLength(10);
    expect(new Set(upProducts.map((p) => p.barcode)).size).toBe(10);
    for (const product of upProducts) expect(product).toMatchObject({ category: upCategory, supplier: upSupplier });
    const first = upProducts.find((p) => p.barcode === '761000');
    expect(first).toMatchObject({ price: 999, imageUrl: expect.stringContaining(pair.upstream.url) });
    for (const id of products.slice(10)) expect((await up.get(`/products/${upstreamIdOf('product', id)}`)).body.data.deleted).toBe(true);

    const upOrders = (await collectPages(up, '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z&includeDeleted=true')).items;
    expect(upOrders).toHaveLength(200);
    const upProductIds = new Set(upProducts.map((p) => p.id));
    for (const order of upOrders) {
      expect(order.store).toBe(upStore);
      for (const line of order.products) expect(upProductIds.has(line.productId)).toBe(true);
    }
    const local = (await collectPages(write, '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z&includeDeleted=true')).items;
    expect(new Set(upOrders.map((o) => o.orderId))).toEqual(new Set(local.map((o) => o.orderId)));
    expect((await up.get(`/orders/${upstreamIdOf('order', orders[0] as string)}`)).body.data.paymentState).toBe('refunded');

    const logs = (await collectPages(up, '/identity-logs?limit=5000')).items;
    expect(logs).toHaveLength(5);
    for (const log of logs) expect(log.store).toBe(upStore);
    const upBlocked = (await collectPages(up, '/identity-logs/blocked?limit=5000')).items;
    expect(upBlocked).toMatchObject([{ comment: 'Fake ID (confirmed)', first_name: 'Max' }]);
  }, 180_000);

  it('creates nothing twice when acknowledgements of creations and orders are lost', async () => {
    const { write, up, proxy } = pair;
    proxy.setMode('down');
    const store = (await collectPages(write, '/stores')).items[0].id as string;
    const product = await created('/products', { name: 'Brot', price: 350, taxCategory: '2.6', barcode: 'brot-1' });
    for (let i = 0; i < 5; i += 1) await created('/orders', { store, products: [{ productId: product, quantity: 1 }] });
    await waitForSync(write, (s) => s.state === 'offline');
    // Every POST reaches the upstream, which stores it; the answer never comes back.
    const { faulted } = proxy.stats();
    proxy.setMode('drop', { only: (method) => method === 'POST' });
    await waitForSync(write, (s) => s.state === 'offline' && /not reachable/.test(s.lastError), 30_000);
    // Sent twice at least, both answers lost: the upstream holds what the store PC does not know it has.
    await expect.poll(() => proxy.stats().faulted, { timeout: 30_000 }).toBeGreaterThanOrEqual(faulted + 2);
    const since = new Date().toISOString();
    proxy.setMode('pass');
    await waitForSync(write, drainedSince(since));
    expect((await collectPages(up, '/products?barcode=brot-1')).items).toHaveLength(1);
    const upProduct = upstreamIdOf('product', product);
    // Counted by product, not before and after: the upstream's orders are the same whatever another test still pushes.
    const upOrders = (await collectPages(up, '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z')).items;
    expect(upOrders.filter((o) => o.products.some((line: { productId: string }) => line.productId === upProduct))).toHaveLength(5);
  });
});
