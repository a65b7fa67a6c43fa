import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let kiosk: Api;
let cheese: string;
let bread: string;

const DAY = '2026-06-10';
// The server's clock: the kiosk sends the day's sales within minutes of their order date.
let now = '2026-06-10T09:00:00.000Z';
const at = (time: string) => `${DAY}T${time}:00.000Z`;
const report = async () => (await write.get(`/reports/daily?store=door&date=${DAY}`)).body.data;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(now) } });
  org = server.createOrg();
  server.createStores(org.id, ['door']);
  write = api(server.url, org.writeKey);
  kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: 'door' })).body.key);
  cheese = (await write.post('/products', { name: 'Bergkäse 200g', price: 590, taxCategory: '2.6' })).body.id;
  bread = (
    await write.post('/products', {
      name: 'Zopf',
      price: 500,
      taxCategory: '2.6',
      salePrice: 400,
      salePriceDateFrom: '2026-06-01T00:00:00.000Z',
      salePriceDateTo: '2026-06-30T23:59:59.000Z',
    })
  ).body.id;
});
afterAll(async () => {
  await server.destroy();
});

describe('a kiosk sale at a price of its own', () => {
  it("is recorded, and the day's report lists each line whose price differs from the catalog's", async () => {
    const res = await kiosk.post('/orders', {
      store: 'door',
      orderDate: at('09:00'),
      products: [
        { productId: cheese, quantity: 2, title: 'Bergkäse 200g', price: 100, taxRate: 0.026 },
        { productId: bread, quantity: 1, title: 'Zopf', price: 400, taxRate: 0.026 },
        { productId: cheese, quantity: 1 },
      ],
    });
    expect(res.status).toBe(200);
    const order = (await write.get(`/orders/${res.body.id}`)).body.data;
    expect(order.products.map((l: { price: number }) => l.price)).toEqual([100, 400, 590]);

    expect((await report()).priceDeviations).toEqual([
      {
        orderId: res.body.id,
        productId: cheese,
        title: 'Bergkäse 200g',
        quantity: 2,
        price: 100,
        catalogPrice: 1180,
        taxRate: 0.026,
        catalogTaxRate: 0.026,
        deposit: 0,
        catalogDeposit: 0,
        reasons: ['price'],
        orderDate: at('09:00'),
        recordedAt: at('09:00'),
      },
    ]);
  });

  it('flags a sale resent after a price change, and still records it', async () => {
    now = at('10:05');
    expect((await write.post(`/products/${cheese}`, { price: 650 })).status).toBe(200);
    const res = await kiosk.post('/orders', {
      store: 'door',
      orderId: 'journal-7',
      orderDate: at('10:00'),
      products: [{ productId: cheese, quantity: 1, title: 'Bergkäse 200g', price: 590, taxRate: 0.026 }],
    });
    expect(res.status).toBe(200);
    const deviations = (await report()).priceDeviations;
    expect(deviations.at(-1)).toMatchObject({ orderId: res.body.id, productId: cheese, title: 'Bergkäse 200g', quantity: 1, price: 590, catalogPrice: 650, reasons: ['price'] });
    expect(deviations).toHaveLength(2);
    const resent = { store: 'door', orderId: 'journal-7', orderDate: at('10:00'), products: [{ productId: cheese, quantity: 1, title: 'Bergkäse 200g', price: 590, taxRate: 0.026 }] };
    expect((await kiosk.post('/orders', resent)).body.id).toBe(res.body.id);
    expect((await kiosk.post('/orders', { store: 'door', orderId: 'journal-7', products: [{ productId: cheese, quantity: 1, price: 1 }] })).status).toBe(409);
    expect((await report()).priceDeviations).toHaveLength(2);
  });

  it('is not flagged when a write key records it (a sale recorded elsewhere)', async () => {
    await write.post('/orders', {
      store: 'door',
      orderDate: at('11:00'),
      products: [{ productId: cheese, quantity: 1, title: 'Bergkäse 200g', price: 5, taxRate: 0.026 }],
    });
    expect((await report()).priceDeviations).toHaveLength(2);
  });

  it('leaves the report of a deleted order, and shows in the CLI report', async () => {
    now = at('12:00');
    const deleted = (
      await kiosk.post('/orders', { store: 'door', orderDate: at('12:00'), products: [{ productId: cheese, quantity: 1, title: 'x', price: 7, taxRate: 0.026 }] })
    ).body.id;
    expect((await report()).priceDeviations).toHaveLength(3);
    await write.post(`/orders/${deleted}`, { deleted: true });
    expect((await report()).priceDeviations).toHaveLength(2);
    const cli = await runCli(server.dataDir, ['report', 'daily', '--store', 'door', '--date', DAY, '--json']);
    expect(cli.json.priceDeviations).toEqual((await report()).priceDeviations);
  });
});
