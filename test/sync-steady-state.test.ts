import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages } from './support/api.js';
import { drainedSince, pulledSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { seedUpstream, syncRun } from './support/upstream-catalog.js';
import type { Catalog } from './bench/catalog.js';

const PRODUCTS = 4000;
const SALES = 12;

let pair: SyncPair;
let catalog: Catalog;
beforeAll(async () => {
  pair = await startSyncPair({ pullIntervalSeconds: 1 });
  catalog = seedUpstream(pair, { products: PRODUCTS });
});
afterAll(async () => {
  await pair.destroy();
});

describe('a store PC selling from an unchanged catalog', () => {
  it('reads the catalog once, then pushes its sales without reading a product row again', async () => {
    await syncRun(pair, { full: true });
    const local = await collectPages(pair.write, '/products?limit=5000');
    expect(local.items).toHaveLength(PRODUCTS);
    const readOnce = pair.proxy.rowsRead()['/products'];
    const pullsBefore = pair.proxy.listReads()['/products'] ?? 0;

    const store = catalog.storeIds[0];
    const since = new Date().toISOString();
    for (let i = 0; i < SALES; i += 1) {
      const sale = await pair.write.post('/orders', { store, products: [{ productId: catalog.productIds[i], quantity: 1 }] });
      expect(sale.status, JSON.stringify(sale.body)).toBe(200);
    }
    await waitForSync(pair.write, drainedSince(since));
    // Two pulls on the interval after the last sale: each asks the change feed, and neither reads a row.
    const firstPull = await waitForSync(pair.write, pulledSince(new Date().toISOString()));
    await waitForSync(pair.write, pulledSince(firstPull.lastPullAt));

    const upOrders = await collectPages(pair.up, '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z');
    expect(upOrders.items).toHaveLength(SALES);
    expect(pair.proxy.listReads()['/products']).toBeGreaterThanOrEqual(pullsBefore + 2);
    expect(pair.proxy.rowsRead()['/products']).toBe(readOnce);
  });
});
