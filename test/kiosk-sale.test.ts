import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cart } from '../renderer/kiosk/cart.js';
import { orderOfSale, saleOf } from '../renderer/kiosk/checkout.js';
import type { Order } from '../shared/api/orders.js';
import type { Product } from '../shared/api/products.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

// The sale the kiosk journals and sends: every line as sold. The server must
// store it exactly so, also when it arrives long after the catalog changed,
// and a receipt built from the sale alone must match the stored order.

let server: TestServer;
let client: Api;
let store: string;
const products: Record<string, Product> = {};

async function created(path: string, body: Record<string, unknown>): Promise<string> {
  const res = await client.post(path, body);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

beforeAll(async () => {
  server = await startTestServer();
  client = api(server.url, server.createOrg().writeKey);
  store = await created('/stores', { name: 'Hofladen' });
  const supplier = await created('/suppliers', { name: 'Molkerei' });
  const day = 24 * 3600 * 1000;
  const bodies = {
    milk: { name: 'Bio Vollmilch 1l', price: 195, taxCategory: '2.6', supplier },
    water: { name: 'Mineralwasser 1.5l', price: 120, taxCategory: '2.6', depositProduct: 50 },
    chocolate: { name: 'Milchschokolade', price: 300, salePrice: 250, salePriceDateFrom: new Date(Date.now() - day).toISOString(), salePriceDateTo: new Date(Date.now() + day).toISOString(), taxCategory: '2.6' },
    beer: { name: 'Lagerbier 50cl', price: 250, taxCategory: '8.1', depositProduct: 30 },
    cheese: { name: 'Bergkäse (kg)', price: 2400, taxCategory: '2.6' },
    flowers: { name: 'Blumen nach Wahl', price: 0, taxCategory: '8.1', openInput: true },
  };
  for (const [name, body] of Object.entries(bodies)) {
    const id = await created('/products', body);
    products[name] = (await client.get(`/products/${id}`)).body.data as Product;
  }
});

afterAll(async () => {
  await server?.destroy();
});

/** A cart with every kind of line the kiosk makes: units, a deposit, a sale price, two rates, a weighed label, an open amount. */
function fullCart(at: string): Cart {
  const cart = new Cart();
  cart.addUnit(products.milk!);
  cart.addUnit(products.milk!);
  cart.addUnit(products.water!);
  cart.addUnit(products.chocolate!);
  cart.addUnit(products.beer!);
  cart.addScaleLabel(products.cheese!, { kind: 'weight', grams: 1234, price: 2962 }, at);
  cart.addAmount(products.flowers!, 1450);
  return cart;
}

const withoutCatalogCopies = (order: Order) => ({ ...order, products: order.products.map(({ supplier: _s, category: _c, ...line }) => line) });

describe('the sale the kiosk sends', () => {
  it('is stored as the cart showed it, and the receipt built from it matches the stored order', async () => {
    const at = new Date().toISOString();
    const cart = fullCart(at);
    const orderId = crypto.randomUUID();
    const sale = saleOf(orderId, store, at, cart.totals(at).lines.map((l) => l.priced), { paymentMethod: 'cash', transactionDate: at });
    const res = await client.post('/orders', sale);
    expect(res.status).toBe(200);
    const stored = (await client.get(`/orders/${res.body.id}`)).body.data as Order;
    expect(stored.price).toBe(cart.totals(at).total);
    expect(orderOfSale({ orderId, paidAt: at, sale, storedId: res.body.id })).toEqual(withoutCatalogCopies(stored));
  });

  it('sent again a day later, after its products were stopped and repriced, is stored as sold, once', async () => {
    const at = new Date().toISOString();
    const cart = new Cart();
    cart.addUnit(products.milk!);
    cart.addUnit(products.water!);
    const orderId = crypto.randomUUID();
    const sale = saleOf(orderId, store, at, cart.totals(at).lines.map((l) => l.priced), { paymentMethod: 'cash' });
    expect((await client.post(`/products/${products.milk!.id}`, { price: 215, saleStop: true })).status).toBe(200);
    expect((await client.post(`/products/${products.water!.id}`, { depositProduct: 100 })).status).toBe(200);

    const first = await client.post('/orders', sale);
    const again = await client.post('/orders', sale);
    expect(first.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    const stored = (await client.get(`/orders/${first.body.id}`)).body.data as Order;
    expect(stored.products.map(({ title, price, deposit }) => ({ title, price, deposit }))).toEqual([
      { title: 'Bio Vollmilch 1l', price: 195, deposit: 0 },
      { title: 'Mineralwasser 1.5l', price: 120, deposit: 50 },
    ]);
    expect(stored.price).toBe(365);
  });
});
