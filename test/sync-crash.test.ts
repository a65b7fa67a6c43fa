import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { createProductStore } from '../main/storage/products.js';
import { api, collectPages, type Api } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { startFaultProxy, type FaultProxy } from './support/fault-proxy.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { configureSync, drainedSince, waitForSync } from './support/sync.js';
import { generateCatalog } from './bench/generate-catalog.js';

const ORDERS = 120;
const PULLED = 8000;
const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z';

let upstream: TestServer;
let proxy: FaultProxy;
let upOrg: TestOrg;
const dataDir = makeDataDir();
let port: number;
let child: ChildServer | undefined;

/** The local server as its own process, so it can be killed with SIGKILL mid-push; it keeps its port across restarts. */
async function startLocal(): Promise<void> {
  child = await startChildServer(dataDir, port);
}

async function kill9(): Promise<void> {
  await child?.crash();
  child = undefined;
}

beforeAll(async () => {
  upstream = await startTestServer();
  proxy = await startFaultProxy(upstream.url);
  upOrg = upstream.createOrg();
  port = await freePort();
});
afterAll(async () => {
  await kill9();
  await proxy.close();
  await upstream.destroy();
});

describe('kill -9 of the local server during a push', () => {
  it('loses nothing and duplicates nothing after the restart', async () => {
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Filiale', features: [] });
    db.close();
    configureSync(dataDir, org.id, { url: proxy.url, key: upOrg.writeKey });
    proxy.setMode('down');
    await startLocal();
    const write: Api = api(`http://127.0.0.1:${port}/api/v1`, org.writeKey);
    const store = (await write.post('/stores', { name: 'Filiale' })).body.id;
    const products: string[] = [];
    for (let i = 0; i < 5; i += 1) products.push((await write.post('/products', { name: `P${i}`, price: 100, taxCategory: '2.6', barcode: `crash-${i}` })).body.id);
    for (let i = 0; i < ORDERS; i += 1) {
      expect((await write.post('/orders', { store, products: [{ productId: products[i % 5], quantity: 1 }] })).status).toBe(200);
    }

    const up = api(upstream.url, upOrg.writeKey);
    // Slow the line down so the push is still running when the process dies.
    proxy.setMode('delay', { delayMs: 15 });
    const ends = Date.now() + 20_000;
    while ((await collectPages(up, ALL_ORDERS)).items.length < 20 && Date.now() < ends) await new Promise((r) => setTimeout(r, 20));
    await kill9();
    const atKill = (await collectPages(up, ALL_ORDERS)).items.length;
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(ORDERS);

    proxy.setMode('pass');
    await startLocal();
    await waitForSync(write, drainedSince(new Date().toISOString()), 30_000);
    const orders = (await collectPages(up, ALL_ORDERS)).items;
    expect(orders).toHaveLength(ORDERS);
    expect(new Set(orders.map((o) => o.orderId)).size).toBe(ORDERS);
    expect((await collectPages(up, '/products?limit=5000')).items.map((p) => p.barcode).sort()).toEqual(products.map((_, i) => `crash-${i}`));
    expect((await collectPages(up, '/stores')).items).toHaveLength(1);
    await kill9();
  });
});

describe('kill -9 of the local server during a pull', () => {
  it('applies the whole catalog after the restart, once, without queueing it', async () => {
    const upDb = openDatabase(join(upstream.dataDir, DATABASE_FILE), { synchronous: 'NORMAL' });
    const catalog = generateCatalog(PULLED, upOrg.id, 7);
    const upProducts = createProductStore(upDb);
    // Stamped now, as the upstream stamps what it writes: the store PC's change feed reads it.
    const stamp = new Date().toISOString();
    upDb.transaction(() => catalog.forEach((product) => upProducts.insert({ ...product, lastupdate: stamp })))();
    upDb.close();
    const local = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    // The generated catalog's ids (p0000000…); local ids are 20 random characters and may start with p too.
    const CATALOG_ID = "GLOB 'p[0-9][0-9][0-9][0-9][0-9][0-9][0-9]'";
    const pulled = () => (local.prepare(`SELECT count(*) AS n FROM products WHERE id ${CATALOG_ID}`).get() as { n: number }).n;
    try {
      await startLocal();
      const ends = Date.now() + 30_000;
      while (pulled() === 0 && Date.now() < ends) await new Promise((r) => setTimeout(r, 2));
      await kill9();
      expect(pulled()).toBeGreaterThan(0);
      expect(pulled()).toBeLessThan(PULLED);
      const queued = (local.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;

      await startLocal();
      const ready = Date.now() + 30_000;
      while (pulled() < PULLED && Date.now() < ready) await new Promise((r) => setTimeout(r, 50));
      expect(pulled()).toBe(PULLED);
      expect(local.prepare(`SELECT count(*) AS n FROM sync_ids WHERE kind = 'product' AND local_id ${CATALOG_ID}`).get()).toEqual({ n: PULLED });
      expect((local.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n).toBe(queued);
    } finally {
      local.close();
      await kill9();
    }
  }, 90_000);
});
