import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { OrderLine } from '../shared/api/orders.js';
import { newId } from '../main/rules/ids.js';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { immediateTransaction } from '../main/storage/transactions.js';
import { api, createdId } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { makeDataDir, startTestServer } from './support/server.js';

const ORDERS = 6_000;
const BARCODE = '7610000000017';
const dataDir = makeDataDir();
let child: ChildServer | undefined;
afterAll(async () => {
  await child?.crash();
});

/** Months of sales, written into the stopped server's data folder: thousands of POST /orders would take the test's whole time. */
function recordSales(orgId: string, store: string, supplier: string): void {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    const orders = createServices({ db, clock: systemClock }).stores.orders;
    const first = Date.now() - 90 * 86_400_000;
    immediateTransaction(db, () => {
      for (let i = 0; i < ORDERS; i += 1) {
        const at = new Date(first + i * 60_000).toISOString();
        const products: OrderLine[] = [0, 1].map((n) => ({ productId: `p${n}`, quantity: 1, title: `Artikel ${n}`, price: 400 + n, netPrice: 390 + n, tax: 10, taxRate: 0.026, type: 'product', supplier, deposit: 0 }));
        const id = newId();
        orders.insert(orgId, { id, orderId: id, store, price: 801, paymentState: 'successful', orderDate: at, deleted: false, products }, at);
      }
    });
  } finally {
    db.close();
  }
}

describe('POST /settlements of thousands of sales', () => {
  it('lets a scanner look barcodes up while it is written, and settles every line once', async () => {
    const setup = await startTestServer({ dataDir });
    const org = setup.createOrg();
    const write = api(setup.url, org.writeKey);
    const store = await createdId(write, '/stores', { name: 'Hofladen', generalMargin: 20 });
    const supplier = await createdId(write, '/suppliers', { name: 'Hof Brunner', iban: 'CH3908704016075473007', payoutsEnabled: true });
    await createdId(write, '/products', { name: 'Bergkäse', price: 890, taxCategory: '2.6', barcode: BARCODE });
    await setup.stop();
    recordSales(org.id, store, supplier);

    child = await startChildServer(dataDir);
    const read = api(child.url, org.readKey);
    let settledAnswer = false;
    const settling = api(child.url, org.writeKey).post('/settlements', { to: new Date().toISOString() });
    void settling.finally(() => (settledAnswer = true));
    // Lookups answered before the settlement's answer: with the settlement on the server's thread in one go, they all wait for it.
    let answeredMeanwhile = 0;
    while (!settledAnswer) {
      const found = await read.get(`/products?barcode=${BARCODE}`);
      expect(found.status).toBe(200);
      if (!settledAnswer) answeredMeanwhile += 1;
    }
    const settled = await settling;
    expect(settled.status).toBe(201);
    expect(answeredMeanwhile).toBeGreaterThan(3);

    const settlement = await api(child.url, org.writeKey).get(`/settlements/${settled.body.id}`);
    expect(settlement.body.data).toMatchObject({ number: 1, totals: { gross: ORDERS * 801 } });
    expect(settlement.body.data.suppliers[0].lines).toBe(ORDERS * 2);
    expect((await api(child.url, org.writeKey).post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
  });
});
