import { expect } from 'vitest';
import type { Api } from './api.js';

/** Valid IBANs of the test shop; the QR-IBAN takes only QR bills. */
export const IBANS = { shop: 'CH93 0076 2011 6238 5295 7', mueller: 'CH5604835012345678009', brunner: 'CH3908704016075473007', qr: 'CH44 3199 9123 0008 8901 2' };

export interface SettlementShop {
  stores: { dorf: string; markt: string };
  suppliers: { mueller: string; brunner: string; eggli: string };
  products: { saft: string; kaese: string; honig: string; brot: string; kaffee: string };
}

async function created(client: Api, path: string, body: unknown): Promise<string> {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body.id as string;
}

/**
 * A farm shop with two stores (margins 20 % and 25 %) and three suppliers:
 * Müller & Söhne with its own 15 %, Hof Brunner with the stores' margins and
 * Käserei Eggli, whose payouts are off.
 */
export async function buildShop(write: Api): Promise<SettlementShop> {
  const dorf = await created(write, '/stores', { name: 'Hofladen Dorf', generalMargin: 20, languageMain: 'de' });
  const markt = await created(write, '/stores', { name: 'Marktstand', generalMargin: 25, languageMain: 'de' });
  const mueller = await created(write, '/suppliers', {
    name: 'Müller & Söhne',
    supplierMargin: 15,
    iban: IBANS.mueller,
    payoutsEnabled: true,
    street: 'Dorfstrasse 1',
    plz: '3000',
    city: 'Bern',
    payoutEmail: 'geld@mueller.example',
  });
  const brunner = await created(write, '/suppliers', { name: 'Hof Brunner', iban: IBANS.brunner, payoutsEnabled: true, email: 'hof@brunner.example' });
  const eggli = await created(write, '/suppliers', { name: 'Käserei Eggli', iban: IBANS.brunner, payoutsEnabled: false });
  const onSaleFrom = new Date(Date.now() - 86_400_000).toISOString();
  const onSaleTo = new Date(Date.now() + 86_400_000).toISOString();
  const products = {
    saft: await created(write, '/products', { name: 'Apfelsaft', price: 450, taxCategory: '2.6', supplier: mueller, depositProduct: 50 }),
    kaese: await created(write, '/products', { name: 'Bergkäse (kg)', price: 2890, taxCategory: '2.6', supplier: brunner }),
    honig: await created(write, '/products', { name: 'Honig', price: 1200, salePrice: 990, salePriceDateFrom: onSaleFrom, salePriceDateTo: onSaleTo, taxCategory: '2.6', supplier: brunner }),
    brot: await created(write, '/products', { name: 'Brot', price: 600, taxCategory: '2.6', supplier: eggli }),
    kaffee: await created(write, '/products', { name: 'Kaffee', price: 800, taxCategory: '8.1' }),
  };
  return { stores: { dorf, markt }, suppliers: { mueller, brunner, eggli }, products };
}

/** Records a sale now and answers its id. */
export const sell = (write: Api, store: string, lines: [string, number][], extra: Record<string, unknown> = {}) =>
  created(write, '/orders', { store, products: lines.map(([productId, quantity]) => ({ productId, quantity })), ...extra });

/**
 * The month's sales: what a settlement of them comes to is worked out by hand
 * in the test that checks it.
 */
export async function sellMonth(write: Api, shop: SettlementShop): Promise<void> {
  const { dorf, markt } = shop.stores;
  const p = shop.products;
  await sell(write, dorf, [[p.saft, 2], [p.kaffee, 1]]);
  await sell(write, dorf, [[p.kaese, 0.355], [p.honig, 1]]);
  await sell(write, dorf, [[p.brot, 3]]);
  const deleted = await sell(write, dorf, [[p.saft, 1]]);
  expect((await write.post(`/orders/${deleted}`, { deleted: true })).status).toBe(200);
  await sell(write, dorf, [[p.saft, 1]], { paymentState: 'pending' });
  await sell(write, markt, [[p.kaese, 1.5], [p.saft, 1]]);
}
