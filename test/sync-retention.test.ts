import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE, openDatabase, type Db } from '../main/storage/database.js';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { drainedSince, waitForSync } from './support/sync.js';

const DAY = 86_400_000;
const pairs: SyncPair[] = [];
const servers: TestServer[] = [];
afterAll(async () => {
  for (const pair of pairs) await pair.destroy();
  for (const server of servers) await server.destroy();
});

const ok = async (res: Promise<{ status: number; body: any }>): Promise<string> => {
  const answer = await res;
  expect(answer.status).toBe(200);
  return answer.body.id as string;
};
const withDb = <T>(dataDir: string, use: (db: Db) => T): T => {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    return use(db);
  } finally {
    db.close();
  }
};
const purge = async (dataDir: string, env: Record<string, string> = {}) => {
  const result = await runCli(dataDir, ['purge', 'run', '--json'], env);
  expect(result.status).toBe(0);
  return result.json;
};
const sold = { productId: '', quantity: 1 };

describe('a hub without an upstream of its own (writes the stores push)', () => {
  it('keeps no outbox entry of them and counts none pending; GET /sync shows the database size and the next purge', async () => {
    const pair = await startSyncPair();
    pairs.push(pair);
    const store = await ok(pair.write.post('/stores', { name: 'Filiale' }));
    const product = await ok(pair.write.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' }));
    await ok(pair.write.post('/orders', { store, products: [{ ...sold, productId: product }] }));
    await pair.write.delete(`/products/${product}`);
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));

    expect(withDb(pair.upstream.dataDir, (db) => db.prepare('SELECT count(*) FROM outbox').pluck().get())).toBe(0);
    // Head office's own writes still wait for an upstream it may get.
    await ok(pair.up.post('/suppliers', { name: 'Bäckerei' }));
    const status = (await pair.up.get('/sync')).body.data;
    expect(status).toMatchObject({ configured: false, pending: 1 });
    expect(status.databaseBytes).toBeGreaterThan(0);
    expect(Date.parse(status.nextPurgeAt)).toBeGreaterThan(Date.now());
  });

  it("drops head office's own unsent entries after the outbox period once stores push to it", async () => {
    // Head office edited two months ago, as its clock says; the purges run today.
    const pair = await startSyncPair({ upstream: { clock: { now: () => new Date(Date.now() - 60 * DAY) } } });
    pairs.push(pair);
    await ok(pair.up.post('/suppliers', { name: 'Bäckerei' }));
    await ok(pair.up.post('/categories', { name: 'Brot' }));
    const hubQueue = () => withDb(pair.upstream.dataDir, (db) => db.prepare("SELECT count(*) FROM outbox WHERE state = 'pending'").pluck().get());
    await ok(pair.write.post('/suppliers', { name: 'Mühle' }));
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    // Within the period they stay; after it, nothing above head office will ever take them.
    expect(await purge(pair.upstream.dataDir, { OUTBOX_RETENTION_DAYS: '90' })).toMatchObject({ outbox: 0 });
    expect(hubQueue()).toBe(2);
    expect(await purge(pair.upstream.dataDir, { OUTBOX_RETENTION_DAYS: '30' })).toMatchObject({ outbox: 2 });
    expect(hubQueue()).toBe(0);
    expect((await pair.up.get('/sync')).body.data).toMatchObject({ configured: false, pending: 0 });
    expect((await pair.up.get('/suppliers')).body.data.map((s: { name: string }) => s.name).sort()).toEqual(['Bäckerei', 'Mühle']);
  });

  it("forgets the answer to a store's creation once the store acknowledged the entry, and keeps it at most 90 days", async () => {
    const pair = await startSyncPair();
    pairs.push(pair);
    await ok(pair.write.post('/categories', { name: 'Käse' }));
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    const kept = () =>
      withDb(pair.upstream.dataDir, (db) => db.prepare("SELECT key, created_at, expires_at, sender FROM idempotency_keys WHERE key LIKE 'sync-%'").all()) as {
        key: string;
        created_at: string;
        expires_at: string;
        sender: string;
      }[];
    const [answer] = kept();
    // The sender is the store's organization and installation: the key without its entry number.
    expect(answer?.sender).toMatch(new RegExp(`^sync-${pair.org.id}-[0-9a-f]{32}$`));
    expect(Date.parse(answer!.expires_at) - Date.parse(answer!.created_at)).toBe(90 * DAY);
    // Not yet acknowledged: the store may still send it again.
    await purge(pair.upstream.dataDir);
    expect(kept().map((k) => k.key)).toEqual([answer!.key]);

    // The next push tells the upstream that every entry before the supplier's is settled.
    await ok(pair.write.post('/suppliers', { name: 'Alpkäserei' }));
    await waitForSync(pair.write, drainedSince(new Date().toISOString()));
    expect((await purge(pair.upstream.dataDir)).answers).toBe(1);
    expect(kept().map((k) => k.key)).not.toContain(answer!.key);
  });
});

describe('a store PC after its retention periods', () => {
  it('deletes pushed outbox entries, its pushed old orders and soft-deleted records with their id mappings, and keeps what is pending', async () => {
    // The store PC sold two months ago, as its clock says; the purge runs today.
    const pair = await startSyncPair({ local: { clock: { now: () => new Date(Date.now() - 60 * DAY) } } });
    pairs.push(pair);
    const store = await ok(pair.write.post('/stores', { name: 'Filiale' }));
    const kept = await ok(pair.write.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' }));
    const gone = await ok(pair.write.post('/products', { name: 'Zopf', price: 650, taxCategory: '2.6' }));
    const order = await ok(pair.write.post('/orders', { store, products: [{ ...sold, productId: kept }] }));
    await pair.write.delete(`/products/${gone}`);
    await waitForSync(pair.write, (s) => s.pending === 0 && s.state === 'idle' && s.lastPushAt !== null);
    const upstreamOrders = () => withDb(pair.upstream.dataDir, (db) => db.prepare('SELECT count(*) FROM orders').pluck().get());
    expect(upstreamOrders()).toBe(1);

    // A standalone server of the same age, which no store pushes to, keeps its own queue (for a later `sync configure`) and its orders.
    const standalone = await startTestServer({ clock: { now: () => new Date(Date.now() - 60 * DAY) } });
    servers.push(standalone);
    const alone = standalone.createOrg();
    const aloneWrite = api(standalone.url, alone.writeKey);
    const aloneStore = await ok(aloneWrite.post('/stores', { name: 'Laden' }));
    const aloneProduct = await ok(aloneWrite.post('/products', { name: 'Milch', price: 190, taxCategory: '2.6' }));
    await ok(aloneWrite.post('/orders', { store: aloneStore, products: [{ ...sold, productId: aloneProduct }] }));

    const env = { OUTBOX_RETENTION_DAYS: '30', SYNCED_ORDER_RETENTION_DAYS: '30', DELETED_RETENTION_DAYS: '30' };
    expect(await purge(pair.local.dataDir, env)).toMatchObject({ outbox: 5, orders: 1, deleted: 1 });
    withDb(pair.local.dataDir, (db) => {
      expect(db.prepare('SELECT count(*) FROM outbox').pluck().get()).toBe(0);
      expect(db.prepare('SELECT id FROM orders').pluck().all()).toEqual([]);
      expect(db.prepare('SELECT id FROM products ORDER BY name').pluck().all()).toEqual([kept]);
      const mapped = db.prepare('SELECT kind, local_id FROM sync_ids ORDER BY kind').all();
      expect(mapped).toEqual([
        { kind: 'product', local_id: kept },
        { kind: 'store', local_id: store },
      ]);
      expect(mapped).not.toContainEqual({ kind: 'order', local_id: order });
    });
    expect(upstreamOrders()).toBe(1);

    expect(await purge(standalone.dataDir, env)).toMatchObject({ outbox: 0, orders: 0 });
    withDb(standalone.dataDir, (db) => {
      expect(db.prepare("SELECT DISTINCT state FROM outbox").pluck().all()).toEqual(['pending']);
      expect(db.prepare('SELECT count(*) FROM orders').pluck().get()).toBe(1);
    });
  });
});

describe('a store PC whose change-feed mark is older than the deletion horizon', () => {
  it('is answered 410, reads the collection whole and removes what the upstream purged', async () => {
    let upstreamNow = Date.now() - 100 * DAY;
    const pair = await startSyncPair({ upstream: { clock: { now: () => new Date(upstreamNow) } } });
    pairs.push(pair);
    const product = await ok(pair.up.post('/products', { name: 'Alter Käse', price: 900, taxCategory: '2.6' }));
    expect((await runCli(pair.local.dataDir, ['sync', 'run', pair.org.id, '--json'])).status).toBe(0);
    expect((await pair.write.get(`/products/${product}`)).body.data).toMatchObject({ deleted: false });

    upstreamNow = Date.now() - 95 * DAY;
    await pair.up.delete(`/products/${product}`);
    upstreamNow = Date.now();
    expect((await purge(pair.upstream.dataDir)).deleted).toBe(1);
    const old = await pair.up.get(`/products?updatedSince=${new Date(Date.now() - 99 * DAY).toISOString()}`);
    expect(old.status).toBe(410);
    expect(old.body.message).toContain('read everything again');

    expect((await runCli(pair.local.dataDir, ['sync', 'run', pair.org.id, '--json'])).status).toBe(0);
    expect((await pair.write.get(`/products/${product}`)).body.data).toMatchObject({ deleted: true });
  }, 90_000);
});
