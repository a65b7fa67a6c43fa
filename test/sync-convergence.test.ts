import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { seededRandom } from './support/fault-proxy.js';
import { configureSync, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

/** Seeds in `npm test`; a long fault run takes more: `SYNC_FAULT_SEEDS=200 npx vitest run test/sync-convergence.test.ts`. */
const RUNS = Number(process.env.SYNC_FAULT_SEEDS ?? 8);
const FAULT_RATE = 0.3;
const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z&includeDeleted=true';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair();
});
afterAll(async () => {
  await pair.destroy();
});

/** A random mix of catalog writes and sales, decided by the seed. */
async function workload(write: Api, seed: number): Promise<{ products: Map<string, number>; deleted: Set<string>; orders: number }> {
  const random = seededRandom(seed * 7919);
  const ok = async (res: Promise<{ status: number; body: any }>) => {
    const answer = await res;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body;
  };
  const store = (await ok(write.post('/stores', { name: `Filiale ${seed}` }))).id as string;
  const category = (await ok(write.post('/categories', { name: 'Alles', allowStore: [store] }))).id as string;
  const products = new Map<string, number>();
  const deleted = new Set<string>();
  const ids: string[] = [];
  let orders = 0;
  for (let step = 0; step < 24; step += 1) {
    const roll = random();
    if (ids.length < 3 || roll < 0.25) {
      const barcode = `s${seed}-p${ids.length}`;
      const price = 100 + Math.floor(random() * 900);
      ids.push((await ok(write.post('/products', { name: barcode, price, taxCategory: '8.1', barcode, category }))).id);
      products.set(barcode, price);
    } else if (roll < 0.4) {
      const index = Math.floor(random() * ids.length);
      const barcode = `s${seed}-p${index}`;
      if (deleted.has(barcode)) continue;
      const price = 100 + Math.floor(random() * 900);
      await ok(write.post(`/products/${ids[index]}`, { price }));
      products.set(barcode, price);
    } else if (roll < 0.45 && ids.length - deleted.size > 3) {
      const index = ids.findIndex((_, i) => !deleted.has(`s${seed}-p${i}`));
      await ok(write.delete(`/products/${ids[index]}`));
      deleted.add(`s${seed}-p${index}`);
    } else {
      const index = ids.findIndex((_, i) => !deleted.has(`s${seed}-p${i}`));
      await ok(write.post('/orders', { store, products: [{ productId: ids[index], quantity: 1 + Math.floor(random() * 3) }] }));
      orders += 1;
    }
  }
  return { products, deleted, orders };
}

describe(`${RUNS} seeded runs with ${FAULT_RATE * 100}% of upstream calls failing (5xx, lost answers, delays)`, () => {
  it('converges every time with nothing lost and nothing duplicated', async () => {
    const figures: string[] = [];
    // Made before any run syncs: a connection of this process that waits for a server's open group blocks the
    // very event loop that would commit it.
    const orgs = Array.from({ length: RUNS }, () => ({ org: pair.local.createOrg(), upOrg: pair.upstream.createOrg() }));
    for (let seed = 1; seed <= RUNS; seed += 1) {
      const { org, upOrg } = orgs[seed - 1]!;
      const write = api(pair.local.url, org.writeKey);
      const up = api(pair.upstream.url, upOrg.writeKey);
      const before = pair.proxy.stats();
      pair.proxy.setRandomFaults(seed, FAULT_RATE);
      configureSync(pair.local, org.id, { url: pair.proxy.url, key: upOrg.writeKey });
      const expected = await workload(write, seed);
      const since = new Date().toISOString();
      await waitForSync(write, drainedSince(since), 30_000);
      pair.proxy.setMode('pass');
      const after = pair.proxy.stats();
      figures.push(`seed ${seed}: ${after.requests - before.requests} calls, ${after.faulted - before.faulted} faulted`);

      const upProducts = (await collectPages(up, '/products?limit=5000')).items;
      const active = [...expected.products].filter(([barcode]) => !expected.deleted.has(barcode));
      expect(new Map(upProducts.map((p) => [p.barcode, p.price])), `seed ${seed}`).toEqual(new Map(active));
      expect((await collectPages(up, ALL_ORDERS)).items, `seed ${seed}`).toHaveLength(expected.orders);
      expect((await collectPages(up, '/stores')).items, `seed ${seed}`).toHaveLength(1);
      expect((await collectPages(up, '/categories')).items, `seed ${seed}`).toHaveLength(1);
      expect((await write.get('/sync')).body.data).toMatchObject({ pending: 0, parked: 0 });
    }
    console.info(`fault runs: ${figures.join('; ')}`);
  }, Math.max(120_000, RUNS * 6_000));
});
