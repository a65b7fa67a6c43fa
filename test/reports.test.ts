import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { standardError, validationError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;
let milk: string;
let bread: string;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  milk = await createProduct({ name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', depositProduct: 30 });
  bread = await createProduct({
    name: 'Zopf',
    price: 500,
    taxCategory: '2.6',
    salePrice: 400,
    salePriceDateFrom: '2026-01-01T00:00:00.000Z',
    salePriceDateTo: '2026-12-31T23:59:59.000Z',
  });
});
afterAll(async () => {
  await server.destroy();
});

async function createProduct(body: Record<string, unknown>): Promise<string> {
  const res = await write.post('/products', body);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function createStore(body: Record<string, unknown> = {}): Promise<string> {
  const res = await write.post('/stores', { name: 'Hofladen', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function sell(store: string, orderDate: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await write.post('/orders', { store, orderDate, products: [{ productId: milk, quantity: 1 }], ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const NOT_A_DAY = 'must be a day of the calendar as YYYY-MM-DD, for example 2026-11-24';

const report = (store: string, date: string, client: Api = read) => client.get(`/reports/daily?store=${encodeURIComponent(store)}&date=${date}`);

describe('GET /reports/daily: keys and bad input', () => {
  it('refuses a request without a key and answers a read key', async () => {
    const store = await createStore();
    expect((await report(store, '2026-11-24', api(server.url))).body).toEqual(standardError(403, 'Forbidden'));
    expect((await report(store, '2026-11-24')).status).toBe(200);
  });

  it.each([
    ['no store', 'date=2026-11-24', { store: ['is required'] }],
    ['an empty store', 'store=&date=2026-11-24', { store: ['must not be empty'] }],
    ['unknown store', 'store=nope&date=2026-11-24', { store: ['no store "nope" in this organization'] }],
    ['no date', 'store=S', { date: ['is required'] }],
    ['a date-time', 'store=S&date=2026-11-24T10:00:00Z', { date: [NOT_A_DAY] }],
    ['a day the calendar lacks', 'store=S&date=2026-02-30', { date: [NOT_A_DAY] }],
  ])('answers 400 in the validation shape: %s', async (_name, query, fieldErrors) => {
    const store = await createStore();
    const res = await read.get(`/reports/daily?${query.replace('store=S', `store=${store}`)}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError(fieldErrors));
  });

  it("treats another organization's store like an unknown one", async () => {
    const stranger = server.createOrg();
    const theirs = await api(server.url, stranger.writeKey).post('/stores', { name: 'Fremd' });
    const answer = await report(theirs.body.id as string, '2026-11-24');
    expect(answer.body).toEqual(validationError({ store: [`no store ${JSON.stringify(theirs.body.id)} in this organization`] }));
  });
});

describe("GET /reports/daily: the store's local day", () => {
  it('counts a sale at 23:30 local time on that day, whatever day it is in UTC', async () => {
    const store = await createStore();
    await sell(store, '2026-11-24T22:30:00.000Z'); // 23:30 in Zurich (UTC+1)
    await sell(store, '2026-11-24T23:30:00.000Z'); // 00:30 on the 25th in Zurich
    await sell(store, '2026-11-23T23:00:00.000Z'); // midnight starting the 24th
    const day = (await report(store, '2026-11-24')).body.data;
    expect([day.timeZone, day.sales, day.firstSaleAt, day.lastSaleAt]).toEqual(['Europe/Zurich', 2, '2026-11-23T23:00:00.000Z', '2026-11-24T22:30:00.000Z']);
    expect((await report(store, '2026-11-25')).body.data.sales).toBe(1);
  });

  it("follows the store's own time zone", async () => {
    const store = await createStore({ timeZone: 'America/New_York' });
    await sell(store, '2026-11-25T04:30:00.000Z'); // 23:30 on the 24th in New York (UTC-5)
    const day = (await report(store, '2026-11-24')).body.data;
    expect([day.timeZone, day.sales]).toEqual(['America/New_York', 1]);
    expect((await report(store, '2026-11-25')).body.data.sales).toBe(0);
  });

  it('has 23 hours on the day the clocks go forward and 25 on the day they go back', async () => {
    const store = await createStore();
    const spring = ['2026-03-28T22:59:59.999Z', '2026-03-28T23:00:00.000Z', '2026-03-29T21:59:59.999Z', '2026-03-29T22:00:00.000Z'];
    const autumn = ['2026-10-24T21:59:59.999Z', '2026-10-24T22:00:00.000Z', '2026-10-25T22:59:59.999Z', '2026-10-25T23:00:00.000Z'];
    for (const at of [...spring, ...autumn]) await sell(store, at);
    const forward = (await report(store, '2026-03-29')).body.data;
    const back = (await report(store, '2026-10-25')).body.data;
    expect([forward.sales, forward.firstSaleAt, forward.lastSaleAt]).toEqual([2, spring[1], spring[2]]);
    expect([back.sales, back.firstSaleAt, back.lastSaleAt]).toEqual([2, autumn[1], autumn[2]]);
  });
});

describe('GET /reports/daily: the figures', () => {
  it('adds up payments, VAT rates, deposits and sale-price discounts, and keeps deleted and unpaid orders apart', async () => {
    const store = await createStore();
    const morning = '2026-06-10T07:00:00.000Z';
    // 2 milk (2 x 195 + 2 x 30 deposit) and 1 Zopf at its sale price 400 instead of 500: 850 by card.
    await sell(store, morning, { paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: milk, quantity: 2 }, { productId: bread, quantity: 1 }] });
    // A line sold at 8.1 % recorded as sold elsewhere, in cash: 1000.
    await sell(store, '2026-06-10T15:45:00.000Z', { paymentMethod: 'cash', products: [{ productId: 'gone', quantity: 1, title: 'Wein', price: 1000, taxRate: 0.081 }] });
    await sell(store, '2026-06-10T12:00:00.000Z', { paymentState: 'failed', paymentMethod: 'card' });
    const deleted = await sell(store, '2026-06-10T13:00:00.000Z', { paymentMethod: 'cash' });
    expect((await write.post(`/orders/${deleted}`, { deleted: true })).status).toBe(200);

    const res = await report(store, '2026-06-10');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        store,
        date: '2026-06-10',
        timeZone: 'Europe/Zurich',
        sales: 2,
        total: 1850,
        byPaymentMethod: [
          { paymentMethod: 'card', paymentBrand: 'TWINT', sales: 1, total: 850 },
          { paymentMethod: 'cash', paymentBrand: null, sales: 1, total: 1000 },
        ],
        byTaxRate: [
          { taxRate: 0.026, gross: 790, net: 770, tax: 20 },
          { taxRate: 0.081, gross: 1000, net: 925, tax: 75 },
        ],
        deposits: 60,
        discounts: { lines: 1, amount: 100 },
        otherPaymentStates: [{ paymentState: 'failed', sales: 1, total: 225 }],
        deletedOrders: { sales: 1, total: 225 },
        priceDeviations: [],
        lateSales: [],
        refunds: { refunds: 0, total: 0 },
        cardWarnings: [],
        // Orders alone carry no card payment: the card part is empty, and no terminal was asked.
        card: { byBrand: [], total: 0, terminalTotal: null, difference: null, terminals: [] },
        firstSaleAt: morning,
        lastSaleAt: '2026-06-10T15:45:00.000Z',
      },
    });
  });

  it('answers an empty day with zeros and no sale times', async () => {
    const store = await createStore();
    expect((await report(store, '2026-11-24')).body.data).toMatchObject({
      sales: 0,
      total: 0,
      byPaymentMethod: [],
      byTaxRate: [],
      deposits: 0,
      firstSaleAt: null,
      lastSaleAt: null,
    });
  });
});

/** The local day of an instant, told by Intl's Swedish date format (YYYY-MM-DD) rather than the server's search for midnight. */
const dayInZurich = (iso: string) => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Zurich' }).format(new Date(iso));

const orderArb = fc.record({
  // Around the day the clocks go back, so the 25-hour day and both neighbours get sales.
  at: fc.integer({ min: Date.parse('2026-10-24T18:00:00Z'), max: Date.parse('2026-10-26T02:00:00Z') }).map((t) => new Date(t).toISOString()),
  paymentMethod: fc.constantFrom('cash', 'card', undefined),
  paymentBrand: fc.constantFrom('TWINT', 'VISA', undefined),
  paymentState: fc.constantFrom('successful', 'successful', 'failed', 'pending'),
  deleted: fc.integer({ min: 1, max: 5 }).map((n) => n === 1),
  lines: fc.array(
    fc.record({
      quantity: fc.integer({ min: 1, max: 5 }),
      price: fc.integer({ min: 0, max: 100_000 }),
      taxRate: fc.constantFrom(0, 0.026, 0.038, 0.081),
      deposit: fc.integer({ min: 0, max: 300 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
});

describe('GET /reports/daily: totals match the orders', () => {
  it("adds up to the sum of the day's orders to the cent, for random orders posted through HTTP", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(orderArb, { minLength: 1, maxLength: 12 }), async (drafts) => {
        const store = await createStore();
        for (const draft of drafts) {
          const id = await sell(store, draft.at, {
            paymentState: draft.paymentState,
            ...(draft.paymentMethod ? { paymentMethod: draft.paymentMethod } : {}),
            ...(draft.paymentBrand ? { paymentBrand: draft.paymentBrand } : {}),
            products: draft.lines.map((line, i) => ({ productId: `p${i}`, title: `Artikel ${i}`, ...line })),
          });
          if (draft.deleted) expect((await write.post(`/orders/${id}`, { deleted: true })).status).toBe(200);
        }
        const listed = await read.get(`/orders?start=2026-10-23T00:00:00Z&end=2026-10-27T00:00:00Z&includeDeleted=true&limit=5000`);
        const ofStore = (listed.body.data as { store: string; orderDate: string; deleted: boolean; paymentState: string; price: number; products: { price: number; tax: number; netPrice: number; deposit: number; taxRate: number }[] }[]).filter(
          (o) => o.store === store && dayInZurich(o.orderDate) === '2026-10-25',
        );
        const counted = ofStore.filter((o) => !o.deleted && o.paymentState === 'successful');
        const lines = counted.flatMap((o) => o.products);
        const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
        const day = (await report(store, '2026-10-25')).body.data;

        expect(day.sales).toBe(counted.length);
        expect(day.total).toBe(sum(counted.map((o) => o.price)));
        expect(sum(day.byPaymentMethod.map((p: { total: number }) => p.total))).toBe(day.total);
        expect(sum(day.byPaymentMethod.map((p: { sales: number }) => p.sales))).toBe(day.sales);
        expect(day.deposits).toBe(sum(lines.map((l) => l.deposit)));
        expect(sum(day.byTaxRate.map((r: { gross: number }) => r.gross)) + day.deposits).toBe(day.total);
        for (const rate of day.byTaxRate as { taxRate: number; gross: number; net: number; tax: number }[]) {
          const atRate = lines.filter((l) => l.taxRate === rate.taxRate);
          expect(rate).toEqual({ taxRate: rate.taxRate, gross: sum(atRate.map((l) => l.price)), net: sum(atRate.map((l) => l.netPrice)), tax: sum(atRate.map((l) => l.tax)) });
          expect(rate.net + rate.tax).toBe(rate.gross);
        }
        const deleted = ofStore.filter((o) => o.deleted);
        expect(day.deletedOrders).toEqual({ sales: deleted.length, total: sum(deleted.map((o) => o.price)) });
        const times = counted.map((o) => o.orderDate).sort();
        expect([day.firstSaleAt, day.lastSaleAt]).toEqual([times[0] ?? null, times.at(-1) ?? null]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('CLI report daily', () => {
  let store: string;
  beforeAll(async () => {
    store = await createStore();
    await sell(store, '2026-06-10T07:00:00.000Z', { paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: milk, quantity: 2 }] });
    await sell(store, '2026-06-10T15:45:00.000Z', { paymentMethod: 'cash', products: [{ productId: 'x', quantity: 1, title: 'Wein, rot', price: 1000, taxRate: 0.081 }] });
  });

  it("prints with --json the same object as the endpoint's data", async () => {
    const res = await runCli(server.dataDir, ['report', 'daily', '--store', store, '--date', '2026-06-10', '--json']);
    expect(res.status).toBe(0);
    expect(res.json).toEqual((await report(store, '2026-06-10')).body.data);
  });

  it('prints with --csv one line per VAT rate and per payment method, amounts in cents', async () => {
    const res = await runCli(server.dataDir, ['report', 'daily', '--store', store, '--date', '2026-06-10', '--csv']);
    expect(res.status).toBe(0);
    expect(res.stdout.trim().split('\n')).toEqual([
      'date,store,kind,taxRate,paymentMethod,paymentBrand,sales,gross,net,tax,total',
      `2026-06-10,${store},vat,0.026,,,,390,380,10,`,
      `2026-06-10,${store},vat,0.081,,,,1000,925,75,`,
      `2026-06-10,${store},payment,,card,TWINT,1,,,,450`,
      `2026-06-10,${store},payment,,cash,,1,,,,1000`,
    ]);
  });

  it('prints a table in francs with the local times of the first and last sale', async () => {
    const res = await runCli(server.dataDir, ['report', 'daily', '--store', store, '--date', '2026-06-10']);
    expect(res.status).toBe(0);
    expect(res.stdout).toContain('Sales: 2   first 09:00:00   last 17:45:00');
    expect(res.stdout).toContain('Total: 14.50   of which deposits 0.60');
    expect(res.stdout).toMatch(/card\s+TWINT\s+1\s+4\.50/);
    expect(res.stdout).toMatch(/8\.1 %\s+10\.00\s+9\.25\s+0\.75/);
  });

  it('names the store or the date it cannot use and exits 1', async () => {
    const unknown = await runCli(server.dataDir, ['report', 'daily', '--store', 'nope', '--date', '2026-06-10']);
    expect([unknown.status, unknown.stderr.trim()]).toEqual([1, `--store: no store "nope" in ${server.dataDir}`]);
    const badDate = await runCli(server.dataDir, ['report', 'daily', '--store', store, '--date', '10.06.2026', '--json']);
    expect([badDate.status, badDate.json]).toEqual([1, { error: '--date: "10.06.2026" must be a day of the calendar as YYYY-MM-DD' }]);
  });
});
