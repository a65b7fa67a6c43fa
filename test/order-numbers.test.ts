import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let atStation: Api;
let atSquare: Api;
let milk: string;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const json = (key: Record<string, string>) => ({ 'content-type': 'application/json', ...key });
const post = (client: Api, path: string, body: unknown, headers: Record<string, string>) =>
  client.request('POST', path, { body: JSON.stringify(body), headers: json(headers) });
const count = (sql: string, ...params: unknown[]) => server.sqlite().prepare(sql).pluck().get(...params) as number;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  server.createStores(org.id, ['station', 'square']);
  write = api(server.url, org.writeKey);
  atStation = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'station' })).body.key);
  atSquare = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'square' })).body.key);
  milk = (await write.post('/products', { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6' })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

describe('POST /orders: an orderId is unique per store', () => {
  it("records two stores' sales with the same orderId, each as its own order", async () => {
    const first = await atStation.post('/orders', { store: 'station', orderId: 'till-1-0001', products: [{ productId: milk, quantity: 1 }] });
    const second = await atSquare.post('/orders', { store: 'square', orderId: 'till-1-0001', products: [{ productId: milk, quantity: 2 }] });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.id).not.toBe(first.body.id);
    const stored = [(await write.get(`/orders/${first.body.id}`)).body.data, (await write.get(`/orders/${second.body.id}`)).body.data];
    expect(stored.map((o) => [o.store, o.orderId, o.price, o.products[0].quantity])).toEqual([
      ['station', 'till-1-0001', 195, 1],
      ['square', 'till-1-0001', 390, 2],
    ]);
    expect(count("SELECT count(*) FROM outbox WHERE resource = 'order'")).toBe(2);
  });

  it('answers a resend of the same sale with the stored order, and another sale under a used orderId with 409', async () => {
    const sale = { store: 'station', orderId: 'till-1-0002', orderDate: new Date().toISOString(), products: [{ productId: milk, quantity: 1 }] };
    const first = await atStation.post('/orders', sale);
    expect(first.status).toBe(200);
    // The catalog changes between the first attempt and the resend: it is still the same sale.
    expect((await write.post(`/products/${milk}`, { price: 210 })).status).toBe(200);
    expect((await atStation.post('/orders', sale)).body).toEqual({ success: true, id: first.body.id });

    const other = await atStation.post('/orders', { ...sale, products: [{ productId: milk, quantity: 3 }] });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({
      statusCode: 409,
      message:
        `orderId "till-1-0002" is already recorded at store "station" as order "${first.body.id}" with other content ` +
        '(products.0.quantity: 3 sent, the stored order has 1). Give a different sale its own orderId; a resend must repeat the first request.',
      timestamp: expect.stringMatching(ISO),
      path: '/api/v1/orders',
    });
    const later = await atStation.post('/orders', { ...sale, orderDate: new Date(Date.parse(sale.orderDate) + 60_000).toISOString() });
    expect(later.status).toBe(409);
    expect(later.body.message).toContain('orderDate');
    const ownPrice = await write.post('/orders', { ...sale, products: [{ productId: milk, quantity: 1, title: 'Milch', price: 1, taxRate: 0.026 }] });
    expect(ownPrice.status).toBe(409);
    expect(ownPrice.body.message).toContain('products.0.title');

    expect(count('SELECT count(*) FROM orders WHERE order_id = ?', 'till-1-0002')).toBe(1);
    expect((await write.get(`/orders/${first.body.id}`)).body.data.products[0]).toMatchObject({ quantity: 1, price: 195 });
  });
});

describe('Idempotency-Key belongs to the API key that sent it', () => {
  it("lets head office use a value a kiosk sent first, and replays each key's own answer", async () => {
    const kioskFirst = await post(atStation, '/orders', { store: 'station', products: [{ productId: milk, quantity: 1 }] }, { 'idempotency-key': 'staff-op-1' });
    expect(kioskFirst.status).toBe(200);
    const staff = await post(write, '/products', { name: 'Zopf', price: 500, taxCategory: '2.6' }, { 'idempotency-key': 'staff-op-1' });
    expect(staff.status).toBe(200);
    expect(staff.headers.get('idempotent-replayed')).toBeNull();
    expect((await write.get(`/products/${staff.body.id}`)).body.data.name).toBe('Zopf');

    const staffAgain = await post(write, '/products', { name: 'Zopf', price: 500, taxCategory: '2.6' }, { 'idempotency-key': 'staff-op-1' });
    expect(staffAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(staffAgain.body).toEqual(staff.body);
    const kioskAgain = await post(atStation, '/orders', { store: 'station', products: [{ productId: milk, quantity: 1 }] }, { 'idempotency-key': 'staff-op-1' });
    expect(kioskAgain.headers.get('idempotent-replayed')).toBe('true');
    expect(kioskAgain.body).toEqual(kioskFirst.body);
    expect(count("SELECT count(*) FROM products WHERE name = 'Zopf'")).toBe(1);
  });

  it("keeps a store PC's sync key for the organization, so a resend under a replaced write key is replayed", async () => {
    const body = { name: 'Filiale Bahnhof' };
    const first = await post(write, '/stores', body, { 'idempotency-key': 'sync-store-pc-1-41' });
    const replaced = api(server.url, (await write.post('/keys', { kind: 'write' })).body.key);
    const again = await post(replaced, '/stores', body, { 'idempotency-key': 'sync-store-pc-1-41' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const kiosk = await post(atStation, '/orders', { store: 'station', products: [{ productId: milk, quantity: 1 }] }, { 'idempotency-key': 'sync-store-pc-1-41' });
    expect(kiosk.status).toBe(200);
    expect(kiosk.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('headers that steer sync, from a kiosk key', () => {
  it('are ignored: its sale is queued for the upstream and no sync worker is acknowledged', async () => {
    const res = await post(atStation, '/orders', { store: 'station', products: [{ productId: milk, quantity: 1 }] }, {
      'idempotency-key': 'sync-forged-7',
      'sync-acknowledged-below': '999',
    });
    expect(res.status).toBe(200);
    expect(count("SELECT count(*) FROM outbox WHERE resource = 'order' AND resource_id = ?", res.body.id)).toBe(1);
    expect(count('SELECT count(*) FROM idempotency_senders')).toBe(0);
    expect(count("SELECT count(*) FROM idempotency_keys WHERE key = 'sync-forged-7' AND sender IS NOT NULL")).toBe(0);
  });
});
