import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { IBANS, buildShop, sell, sellMonth, type SettlementShop } from './support/settlement-shop.js';

let server: TestServer;
let write: Api;
let read: Api;
let shop: SettlementShop;
let first: string;

const now = () => new Date().toISOString();

beforeAll(async () => {
  server = await startTestServer();
  const org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  shop = await buildShop(write);
  await sellMonth(write, shop);
});
afterAll(() => server.destroy());

describe('POST /payout-account', () => {
  it('refuses an invalid IBAN and a QR-IBAN, naming the field', async () => {
    const invalid = await write.post('/payout-account', { name: 'Hofladen', iban: 'CH93 0076 2011 6238 5295 8' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/^iban: .*not a valid IBAN/);
    const qr = await write.post('/payout-account', { name: 'Hofladen', iban: IBANS.qr });
    expect(qr.status).toBe(400);
    expect(qr.body.message).toMatch(/^iban: .*QR-IBAN/);
    expect((await read.get('/payout-account')).status).toBe(404);
  });

  it('is refused for a read key', async () => {
    expect((await read.post('/payout-account', { name: 'Hofladen', iban: IBANS.shop })).status).toBe(403);
  });
});

describe('POST /settlements', () => {
  it('refuses a `to` in the future and a store of another organization', async () => {
    const future = await write.post('/settlements', { to: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(400);
    expect(future.body.message).toMatch(/in the future/);
    const other = api(server.url, server.createOrg().writeKey);
    const foreign = await other.post('/stores', { name: 'Fremd' });
    expect((await write.post('/settlements', { to: now(), store: foreign.body.id })).status).toBe(404);
    expect((await read.post('/settlements', { to: now() })).status).toBe(403);
  });

  it('settles the month to the cent per supplier and store', async () => {
    const res = await write.post('/settlements', { to: now() });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, id: expect.any(String) });
    first = res.body.id;
    const { body } = await read.get(`/settlements/${first}`);
    const { mueller, brunner, eggli } = shop.suppliers;
    // Müller: 2 x 4.50 at the Dorf, 1 x 4.50 at the Markt (deposits left out), 15 % each: 1.35 + 0.675 -> 0.68.
    // Brunner: 0.355 kg x 28.90 = 10.26 and Honig on sale 9.90 at the Dorf (20 %: 4.032 -> 4.03),
    //          1.5 kg x 28.90 = 43.35 at the Markt (25 %: 10.8375 -> 10.84).
    // Eggli: 3 x 6.00 at the Dorf, 20 %, payouts off.
    expect(body.data).toEqual({
      id: first,
      number: 1,
      to: expect.any(String),
      store: null,
      createdAt: expect.any(String),
      totals: { gross: 9501, margin: 2050, payout: 7451 },
      suppliers: expect.arrayContaining([
        { supplier: mueller, name: 'Müller & Söhne', gross: 1350, marginPercent: 15, margin: 203, payout: 1147, lines: 2, payoutProblem: null },
        { supplier: brunner, name: 'Hof Brunner', gross: 6351, marginPercent: 23.41, margin: 1487, payout: 4864, lines: 3, payoutProblem: null },
        { supplier: eggli, name: 'Käserei Eggli', gross: 1800, marginPercent: 20, margin: 360, payout: 1440, lines: 1, payoutProblem: 'payouts-disabled' },
      ]),
    });
    expect(body.data.suppliers).toHaveLength(3);
  });

  it('answers 409 when nothing is left to settle', async () => {
    const res = await write.post('/settlements', { to: now() });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/Nothing to settle/);
  });

  it('takes a sale recorded late into the next settlement, never the closed one', async () => {
    const closed = (await read.get(`/settlements/${first}`)).body.data;
    const before = new Date(new Date(closed.to).getTime() - 3_600_000).toISOString();
    await sell(write, shop.stores.dorf, [[shop.products.saft, 1]], { orderDate: before });
    const res = await write.post('/settlements', { to: now() });
    expect(res.status).toBe(201);
    const next = (await read.get(`/settlements/${res.body.id}`)).body.data;
    expect(next.number).toBe(2);
    expect(next.totals).toEqual({ gross: 450, margin: 68, payout: 382 });
    expect((await read.get(`/settlements/${first}`)).body.data).toEqual(closed);
    const list = (await read.get('/settlements')).body.data;
    expect(list.map((s: { number: number }) => s.number)).toEqual([2, 1]);
    expect(list[1].totals).toEqual({ gross: 9501, margin: 2050, payout: 7451 });
  });

  it('settles one store alone when asked', async () => {
    await sell(write, shop.stores.dorf, [[shop.products.brot, 1]]);
    await sell(write, shop.stores.markt, [[shop.products.brot, 2]]);
    const res = await write.post('/settlements', { to: now(), store: shop.stores.markt });
    expect(res.status).toBe(201);
    const settled = (await read.get(`/settlements/${res.body.id}`)).body.data;
    expect(settled).toMatchObject({ number: 3, store: shop.stores.markt, totals: { gross: 1200, margin: 300, payout: 900 } });
  });

  it('keeps every line in one settlement at most', () => {
    const db = server.sqlite();
    const twice = db.prepare("SELECT order_id, line FROM settlement_lines WHERE kind = 'sale' GROUP BY order_id, line HAVING count(*) > 1").all();
    expect(twice).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM settlement_lines').get()).toEqual({ n: 8 });
  });
});
