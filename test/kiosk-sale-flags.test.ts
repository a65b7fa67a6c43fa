import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

// The server's clock: a kiosk records the day's sales, and one sent late.
const NOW = '2026-06-10T15:00:00.000Z';
const DAY = '2026-06-10';

let server: TestServer;
let org: TestOrg;
let write: Api;
let kiosk: Api;
let cheese: string;
let beer: string;
let bread: string;

const report = async (date = DAY) => (await write.get(`/reports/daily?store=door&date=${date}`)).body.data;
const sell = (client: Api, products: unknown[], fields: Record<string, unknown> = {}) =>
  client.post('/orders', { store: 'door', orderDate: '2026-06-10T14:50:00.000Z', products, ...fields });
const flagsOf = async (orderId: string) =>
  (await report()).priceDeviations.filter((d: { orderId: string }) => d.orderId === orderId).map((d: { reasons: string[] }) => d.reasons);

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(NOW) } });
  org = server.createOrg();
  server.createStores(org.id, ['door']);
  write = api(server.url, org.writeKey);
  kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
  cheese = (await write.post('/products', { name: 'Bergkäse 200g', price: 590, taxCategory: '2.6' })).body.id;
  beer = (await write.post('/products', { name: 'Lagerbier 33cl', price: 250, taxCategory: '8.1', depositProduct: 30 })).body.id;
  bread = (
    await write.post('/products', {
      name: 'Zopf',
      price: 500,
      taxCategory: '2.6',
      salePrice: 300,
      salePriceDateFrom: '2026-05-01T00:00:00.000Z',
      salePriceDateTo: '2026-05-10T23:59:59.000Z',
    })
  ).body.id;
});
afterAll(async () => {
  await server.destroy();
});

describe("a kiosk key's sale lines that differ from the catalog are recorded and flagged", () => {
  it('flags a line with an unknown product id, also a real id in other letter case', async () => {
    const res = await sell(kiosk, [
      { productId: 'no-such-product', quantity: 1, title: 'Geschenk', price: 0, taxRate: 0.081, deposit: 0 },
      { productId: cheese.toUpperCase(), quantity: 1, title: 'Bergkäse 200g', price: 0, taxRate: 0.026, deposit: 0 },
    ]);
    expect(res.status).toBe(200);
    const flagged = (await report()).priceDeviations.filter((d: { orderId: string }) => d.orderId === res.body.id);
    expect(flagged).toEqual([
      {
        orderId: res.body.id,
        productId: 'no-such-product',
        title: 'Geschenk',
        quantity: 1,
        price: 0,
        catalogPrice: null,
        taxRate: 0.081,
        catalogTaxRate: null,
        deposit: 0,
        catalogDeposit: null,
        reasons: ['unknown-product'],
        orderDate: '2026-06-10T14:50:00.000Z',
        recordedAt: NOW,
      },
      expect.objectContaining({ productId: cheese.toUpperCase(), reasons: ['unknown-product'] }),
    ]);
  });

  it('flags a tax rate of 0 on an 8.1 % product and a dropped deposit, not the honest lines, nor a write key\'s sale', async () => {
    const res = await sell(kiosk, [
      { productId: beer, quantity: 1, title: 'Lagerbier 33cl', price: 250, taxRate: 0, deposit: 30 },
      { productId: beer, quantity: 2, title: 'Lagerbier 33cl', price: 500, taxRate: 0.081, deposit: 0 },
      { productId: beer, quantity: 2, title: 'Lagerbier 33cl', price: 500, taxRate: 0.081, deposit: 60 },
      { productId: cheese, quantity: 1 },
    ]);
    expect(res.status).toBe(200);
    const flagged = (await report()).priceDeviations.filter((d: { orderId: string }) => d.orderId === res.body.id);
    expect(flagged.map((d: Record<string, unknown>) => [d.reasons, d.taxRate, d.catalogTaxRate, d.deposit, d.catalogDeposit])).toEqual([
      [['tax-rate'], 0, 0.081, 30, 30],
      [['deposit'], 0.081, 0.081, 0, 60],
    ]);
    const staff = await sell(write, [{ productId: beer, quantity: 1, title: 'Lagerbier 33cl', price: 250, taxRate: 0, deposit: 0 }]);
    expect(staff.status).toBe(200);
    expect(await flagsOf(staff.body.id)).toEqual([]);
  });

  it('flags a quantity so small that the line costs nothing, with or without its own price', async () => {
    const res = await sell(kiosk, [
      { productId: cheese, quantity: 0.000001, title: 'Bergkäse 200g', price: 0, taxRate: 0.026, deposit: 0 },
    ]);
    expect(res.status).toBe(200);
    expect((await write.get(`/orders/${res.body.id}`)).body.data.price).toBe(0);
    expect(await flagsOf(res.body.id)).toEqual([['zero-total']]);
    const priced = await sell(kiosk, [{ productId: cheese, quantity: 0.000001 }]);
    expect(priced.status).toBe(200);
    expect(await flagsOf(priced.body.id)).toEqual([['zero-total']]);
  });
});

describe("a kiosk key's order date", () => {
  it('may be back-dated within the resend window: priced on its day, and listed as late on the day it was recorded', async () => {
    const res = await kiosk.post('/orders', {
      store: 'door',
      orderDate: '2026-05-05T10:00:00.000Z',
      products: [{ productId: bread, quantity: 1, title: 'Zopf', price: 300, taxRate: 0.026, deposit: 0 }],
    });
    expect(res.status).toBe(200);
    const today = await report();
    expect(today.lateSales).toEqual([{ orderId: res.body.id, orderDate: '2026-05-05T10:00:00.000Z', recordedAt: NOW, total: 300 }]);
    expect((await report('2026-05-05')).sales).toBe(1);

    const cheapBackDated = await kiosk.post('/orders', {
      store: 'door',
      orderDate: '2026-05-06T10:00:00.000Z',
      products: [{ productId: cheese, quantity: 1, title: 'Bergkäse 200g', price: 100, taxRate: 0.026, deposit: 0 }],
    });
    expect(cheapBackDated.status).toBe(200);
    expect(await flagsOf(cheapBackDated.body.id)).toEqual([['price']]);
    const slip = (await runCli(server.dataDir, ['report', 'daily', '--store', 'door', '--date', DAY])).stdout;
    expect(slip).toContain(`  order ${res.body.id}: sold 2026-05-05T10:00:00.000Z, recorded ${NOW}, 3.00`);
    expect(slip).toContain(`  order ${cheapBackDated.body.id}: Bergkäse 200g x 1, 1.00 (price)`);
  });

  it('is refused with 400 beyond the resend window, in the future beyond the clock margin, and on a refunded state', async () => {
    const line = [{ productId: cheese, quantity: 1 }];
    const old = await kiosk.post('/orders', { store: 'door', orderDate: '2026-03-01T10:00:00.000Z', products: line });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe(
      'orderDate: 2026-03-01T10:00:00.000Z is more than 90 days ago (before 2026-03-12T15:00:00.000Z), ' +
        "older than a kiosk's journal resends a sale; staff record such a sale with a write key.",
    );
    const future = await kiosk.post('/orders', { store: 'door', orderDate: '2099-01-01T00:00:00.000Z', products: line });
    expect(future.status).toBe(400);
    expect(future.body.message).toBe(
      "orderDate: 2099-01-01T00:00:00.000Z is in the future; a kiosk key records sales up to 5 minutes ahead of the server's clock (2026-06-10T15:00:00.000Z). Check the kiosk's clock.",
    );
    expect((await kiosk.post('/orders', { store: 'door', orderDate: '2026-06-10T15:04:00.000Z', products: line })).status).toBe(200);
    const refunded = await kiosk.post('/orders', { store: 'door', paymentState: 'refunded', products: line });
    expect(refunded.status).toBe(400);
    expect(refunded.body).toMatchObject({ statusCode: 400, path: '/api/v1/orders' });
    expect(refunded.body.message).toContain('paymentState: a kiosk key records paid sales only ("successful"), not "refunded"');
    expect((await kiosk.post('/orders', { store: 'door', paymentState: 'successful', products: line })).status).toBe(200);
    expect((await write.post('/orders', { store: 'door', paymentState: 'refunded', orderDate: '2026-01-01T00:00:00.000Z', products: line })).status).toBe(200);
    expect(server.sqlite().prepare("SELECT count(*) FROM orders WHERE order_date IN ('2026-03-01T10:00:00.000Z', '2099-01-01T00:00:00.000Z')").pluck().get()).toBe(0);
  });
});
