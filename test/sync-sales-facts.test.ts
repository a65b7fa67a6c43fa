import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { standardError } from './support/shapes.js';
import { drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

const ALL_ORDERS = '/orders?limit=5000&start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ features: ['identity-logs', 'barcode-aliases'] });
  // The upstream organization lacks barcode aliases: it parks the creation of a product that carries them.
  await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
});
afterAll(async () => {
  await pair.destroy();
});

const created = async (client: Api, path: string, body: unknown): Promise<string> => {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
const settled = () => waitForSync(pair.write, drainedSince(new Date().toISOString()));
const upOrder = async (orderId: string) => (await collectPages(pair.up, ALL_ORDERS)).items.find((o) => o.orderId === orderId);
const upIdOf = async (barcode: string): Promise<string> => (await collectPages(pair.up, `/products?barcode=${barcode}`)).items[0].id;

describe('POST /orders with lines that carry what was sold', () => {
  let store: string;
  beforeAll(async () => {
    store = await created(pair.up, '/stores', { name: 'Zentrale' });
  });

  it('records the sale of deleted, stopped, deactivated and unknown products as sold', async () => {
    const { up } = pair;
    const deleted = await created(up, '/products', { name: 'Alt', price: 100, taxCategory: '8.1' });
    expect((await up.delete(`/products/${deleted}`)).status).toBe(200);
    const stopped = await created(up, '/products', { name: 'Gestoppt', price: 100, taxCategory: '8.1', saleStop: true, depositProduct: 30 });
    const deactivated = await created(up, '/products', { name: 'Inaktiv', price: 100, taxCategory: '8.1', deactivated: true });
    const lines = [
      { productId: deleted, quantity: 1, title: 'Alt', price: 120, taxRate: 0.081 },
      { productId: stopped, quantity: 2, title: 'Gestoppt', price: 200, taxRate: 0.081 },
      { productId: deactivated, quantity: 1, title: 'Inaktiv', price: 90, taxRate: 0.026, deposit: 0 },
      { productId: 'never-here', quantity: 1, title: 'Fremd', price: 500, taxRate: 0.081, deposit: 25 },
    ];
    const id = await created(up, '/orders', { store, products: lines, orderId: 'facts-1' });
    const order = (await up.get(`/orders/${id}`)).body.data;
    expect(order.price).toBe(120 + 200 + 60 + 90 + 500 + 25);
    expect(order.products).toEqual([
      { productId: deleted, quantity: 1, title: 'Alt', price: 120, netPrice: 111, tax: 9, taxRate: 0.081, type: 'product', deposit: 0 },
      { productId: stopped, quantity: 2, title: 'Gestoppt', price: 200, netPrice: 185, tax: 15, taxRate: 0.081, type: 'product', deposit: 60 },
      { productId: deactivated, quantity: 1, title: 'Inaktiv', price: 90, netPrice: 88, tax: 2, taxRate: 0.026, type: 'product', deposit: 0 },
      { productId: 'never-here', quantity: 1, title: 'Fremd', price: 500, netPrice: 463, tax: 37, taxRate: 0.081, type: 'product', deposit: 25 },
    ]);
  });

  it('still refuses such products when a line leaves its price to the catalog', async () => {
    const stopped = await created(pair.up, '/products', { name: 'Stopp', price: 100, taxCategory: '8.1', saleStop: true });
    const res = await pair.up.post('/orders', { store, products: [{ productId: stopped, quantity: 1, title: 'Stopp', price: 100 }] });
    expect(res.body).toEqual(standardError(400, `products.0.productId: product "${stopped}" has saleStop set and cannot be sold`));
    const unknown = await pair.up.post('/orders', {
      store,
      products: [
        { productId: 'never-here', quantity: 1 },
        { productId: 'never-here', quantity: 1, title: 'Fremd', price: 500, taxRate: 0.081 },
      ],
    });
    expect(unknown.body).toEqual(standardError(400, 'products.0.productId: no product "never-here" in this organization'));
  });
});

describe('a sale made offline of a product HQ changed meanwhile (field condition 3)', () => {
  it('reaches the upstream for a deleted, a stopped and a deactivated product; nothing is parked', async () => {
    const { write, up, proxy } = pair;
    const store = await created(write, '/stores', { name: 'Filiale Markt' });
    const local: Record<string, string> = {};
    for (const name of ['weg', 'stopp', 'aus']) local[name] = await created(write, '/products', { name, price: 250, taxCategory: '2.6', barcode: `facts-${name}` });
    await settled();

    proxy.setMode('down');
    expect((await up.delete(`/products/${await upIdOf('facts-weg')}`)).status).toBe(200);
    expect((await up.post(`/products/${await upIdOf('facts-stopp')}`, { saleStop: true })).status).toBe(200);
    expect((await up.post(`/products/${await upIdOf('facts-aus')}`, { deactivated: true })).status).toBe(200);
    for (const name of ['weg', 'stopp', 'aus']) {
      await created(write, '/orders', { store, products: [{ productId: local[name], quantity: 2 }], orderId: `markt-${name}` });
    }
    proxy.setMode('pass');
    const status = await settled();

    expect(status).toMatchObject({ pending: 0, parked: 0 });
    for (const name of ['weg', 'stopp', 'aus']) {
      const order = await upOrder(`markt-${name}`);
      expect(order?.price).toBe(500);
      expect(order?.products).toMatchObject([{ title: name, quantity: 2, price: 500, taxRate: 0.026 }]);
    }
  });

  it('reaches the upstream with its own data when the product creation was parked, and again after it was discarded', async () => {
    const { write } = pair;
    const store = await created(write, '/stores', { name: 'Filiale Park' });
    const aliased = await created(write, '/products', {
      name: 'Wasser 6er',
      price: 600,
      taxCategory: '2.6',
      barcode: 'facts-wasser',
      barcodeAliases: [{ code: 'facts-wasser-6', quantity: 6 }],
    });
    await created(write, '/orders', { store, products: [{ productId: aliased, quantity: 1 }], orderId: 'park-1' });
    await waitForSync(write, (s) => s.parked === 1 && s.pending === 0 && s.state === 'idle');
    const [parked] = (await write.get('/sync/parked')).body.data;
    expect(parked).toMatchObject({ resource: 'product', resourceId: aliased, status: 403 });
    // The line keeps the store's own product id: no upstream product stands for it.
    expect((await upOrder('park-1'))?.products).toMatchObject([{ productId: aliased, title: 'Wasser 6er', price: 600, taxRate: 0.026 }]);

    const discarded = await runCli(pair.local.dataDir, ['sync', 'discard', pair.org.id, String(parked.id), '--json']);
    expect(discarded).toMatchObject({ status: 0, json: { discarded: 1 } });
    await created(write, '/orders', { store, products: [{ productId: aliased, quantity: 2 }], orderId: 'park-2' });
    expect(await settled()).toMatchObject({ pending: 0, parked: 0 });
    expect((await upOrder('park-2'))?.products).toMatchObject([{ productId: aliased, title: 'Wasser 6er', price: 1200 }]);
  });
});
