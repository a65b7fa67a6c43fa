import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages } from './support/api.js';
import { runCli } from './support/cli.js';
import { FAST_SYNC, configureSync, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
beforeAll(async () => {
  // One `sync run` must reach the upstream: a call's time limit long enough for a loaded test machine.
  pair = await startSyncPair({ features: ['identity-logs', 'barcode-aliases'], local: { sync: { ...FAST_SYNC, timeoutMs: 15_000 } } });
  // The upstream organization lacks barcode aliases: it refuses products that carry them.
  await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
});
afterAll(async () => {
  await pair.destroy();
});

const created = async (path: string, body: unknown, client = pair.write): Promise<string> => {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
const settled = async () => waitForSync(pair.write, drainedSince(new Date().toISOString()));
const upProductsWithBarcode = async (code: string) => (await collectPages(pair.up, `/products?barcode=${code}`)).items;
const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z';

describe('an entry the upstream refuses', () => {
  let store: string;
  let aliased: string;
  let parkedId: number;

  it('is parked with the upstream status and message; independent entries and sales go through, dependent ones wait', async () => {
    const { write } = pair;
    store = await created('/stores', { name: 'Filiale See' });
    aliased = await created('/products', { name: 'Wasser 6er', price: 600, taxCategory: '2.6', barcode: 'wasser-1', barcodeAliases: [{ code: 'wasser-6', quantity: 6 }] });
    expect((await write.post(`/products/${aliased}`, { price: 650 })).status).toBe(200);
    await created('/orders', { store, products: [{ productId: aliased, quantity: 1 }], orderId: 'see-1' });
    await created('/products', { name: 'Saft', price: 300, taxCategory: '2.6', barcode: 'saft-1' });
    const status = await settledWithParked();
    expect(status).toMatchObject({ state: 'idle', parked: 1, pending: 1, lastError: null });

    const parked = await write.get('/sync/parked');
    expect(parked.status).toBe(200);
    expect(parked.body.data).toEqual([
      { id: expect.any(Number), operation: 'create', resource: 'product', resourceId: aliased, status: 403, message: 'Feature not available', parkedAt: expect.any(String) },
    ]);
    parkedId = parked.body.data[0].id;
    expect(await upProductsWithBarcode('saft-1')).toHaveLength(1);
    expect(await upProductsWithBarcode('wasser-1')).toHaveLength(0);
    // A sale is a fact: it goes with its own data, under the store's product id.
    const [sale] = (await collectPages(pair.up, ALL_ORDERS)).items.filter((o) => o.orderId === 'see-1');
    expect(sale.products).toMatchObject([{ productId: aliased, title: 'Wasser 6er', price: 650 }]);

    const cli = await runCli(pair.local.dataDir, ['sync', 'status', pair.org.id, '--json']);
    expect(cli.status).toBe(0);
    const { lastPushAt: _push, lastPullAt: _pull, lastFullPullAt: _full, ...stable } = status;
    expect(cli.json).toMatchObject(stable);
  });

  it('goes back to the queue with `sync retry`, and the entries behind it follow', async () => {
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--enable', 'barcode-aliases', '--json']);
    const retried = await runCli(pair.local.dataDir, ['sync', 'retry', pair.org.id, String(parkedId), '--json']);
    expect(retried).toMatchObject({ status: 0, json: { retried: 1 } });
    pair.write.post('/stores', { name: 'Anstoss' });
    await settled();
    const [product] = await upProductsWithBarcode('wasser-1');
    expect(product).toMatchObject({ price: 650, barcodeAliases: [{ code: 'wasser-6', quantity: 6 }] });
    const orders = (await collectPages(pair.up, ALL_ORDERS)).items.filter((o) => o.orderId === 'see-1');
    expect(orders).toHaveLength(1);
    expect((await pair.write.get('/sync/parked')).body.data).toEqual([]);
  });

  it('is dropped only by an explicit `sync discard`, which keeps a record of it', async () => {
    const { write } = pair;
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
    const saft = (await collectPages(write, '/products?barcode=saft-1')).items[0].id;
    expect((await write.post(`/products/${saft}`, { barcodeAliases: [{ code: 'saft-6', quantity: 6 }] })).status).toBe(200);
    await settledWithParked();
    const [parked] = (await write.get('/sync/parked')).body.data;
    expect(parked).toMatchObject({ resource: 'product', resourceId: saft, status: 403, message: 'Feature not available' });

    const wrong = await runCli(pair.local.dataDir, ['sync', 'discard', pair.org.id, '999999', '--json']);
    expect(wrong.status).toBe(1);
    expect(wrong.json.error).toMatch(/not a parked entry/);
    const discarded = await runCli(pair.local.dataDir, ['sync', 'discard', pair.org.id, String(parked.id), '--json']);
    expect(discarded).toMatchObject({ status: 0, json: { discarded: 1 } });
    expect((await write.get('/sync')).body.data.parked).toBe(0);
    const record = pair.local.sqlite().prepare('SELECT state, upstream_status, last_error FROM outbox WHERE seq = ?').get(parked.id);
    expect(record).toEqual({ state: 'discarded', upstream_status: 403, last_error: parked.message });
  });
});

async function settledWithParked() {
  return waitForSync(pair.write, (s) => s.state === 'idle' && s.parked > 0 && s.lastPullAt !== null);
}

describe('an upstream that refuses the key', () => {
  it('stops the worker in state refused and parks nothing', async () => {
    const org = pair.local.createOrg();
    configureSync(pair.local, org.id, { url: pair.proxy.url, key: 'not-a-valid-key' });
    const write = api(pair.local.url, org.writeKey);
    await created('/suppliers', { name: 'Mühle' }, write);
    const status = await waitForSync(write, (s) => s.state === 'refused');
    expect(status).toMatchObject({ pending: 1, parked: 0, lastError: 'upstream refused the key (403: Forbidden)' });
  });
});

describe('sync CLI', () => {
  it('configures, runs, reports and disables without ever printing the key', async () => {
    const org = pair.local.createOrg();
    const upOrg = pair.upstream.createOrg();
    const dir = pair.local.dataDir;
    const configured = await runCli(dir, ['sync', 'configure', org.id, '--url', pair.proxy.url, '--key', upOrg.writeKey, '--interval', '600', '--json']);
    expect(configured).toMatchObject({ status: 0, json: { configured: true, upstream: pair.proxy.url, interval: 600 } });
    await created('/suppliers', { name: 'Käserei' }, api(pair.local.url, org.writeKey));
    const run = await runCli(dir, ['sync', 'run', org.id, '--json']);
    expect(run).toMatchObject({ status: 0, json: { pushed: expect.any(Number), parked: 0, pending: 0, pulled: expect.any(Number) } });
    expect((await collectPages(api(pair.upstream.url, upOrg.writeKey), '/suppliers')).items.map((s) => s.name)).toEqual(['Käserei']);
    const status = await runCli(dir, ['sync', 'status', org.id]);
    expect(status.stdout).toMatch(/Pending: 0/);
    const http = await api(pair.local.url, org.readKey).get('/sync');
    for (const output of [configured.stdout, run.stdout, status.stdout, status.stderr, JSON.stringify(http.body)]) {
      expect(output).not.toContain(upOrg.writeKey);
    }
    pair.proxy.setMode('down');
    const offline = await runCli(dir, ['sync', 'run', org.id, '--json']);
    pair.proxy.setMode('pass');
    expect(offline.status).toBe(1);
    expect(await runCli(dir, ['sync', 'disable', org.id, '--json'])).toMatchObject({ status: 0, json: { configured: false } });
    expect((await api(pair.local.url, org.readKey).get('/sync')).body.data).toMatchObject({ configured: false, upstream: null, state: 'off' });
    const bad = await runCli(dir, ['sync', 'configure', org.id, '--url', 'ftp://x', '--key', 'k', '--json']);
    expect(bad.status).toBe(1);
    expect(bad.json.error).toMatch(/--url/);
  });
});
