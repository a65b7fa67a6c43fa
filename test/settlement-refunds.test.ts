import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { buildShop, sell, type SettlementShop } from './support/settlement-shop.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/**
 * Refunds given back by card at the terminal, after and before a sale is
 * settled: each counts from when the terminal confirmed it, whatever happens
 * to the order later.
 */

let sim: TerminalSimulator;
let server: TestServer;
let write: Api;
let read: Api;
let shop: SettlementShop;

beforeAll(async () => {
  [sim, server] = await Promise.all([startTerminalSimulator(), startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK })]);
  const org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  shop = await buildShop(write);
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const terminal = await write.post('/terminals', { store: shop.stores.dorf, name: 'Terminal Dorf', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate });
  expect(terminal.status).toBe(201);
});
afterAll(async () => {
  await server?.destroy();
  await sim?.stop();
});

let sales = 0;

/** A sale at the Dorf paid by card: the terminal approves, then the order is recorded with its payment. */
async function cardSale(lines: [string, number][], amount: number): Promise<{ order: string; payment: string }> {
  await sim.next({ outcome: 'approve' });
  const started = await write.post('/payments', { store: shop.stores.dorf, amount, currency: 'CHF', reference: `refund-sale-${++sales}` });
  expect(started.status).toBe(202);
  const payment = started.body.data.id as string;
  await expect.poll(async () => (await read.get(`/payments/${payment}`)).body.data.state).toBe('approved');
  const order = await sell(write, shop.stores.dorf, lines, { orderId: `refund-sale-${sales}`, payment });
  return { order, payment };
}

/** Gives `amount` back by card and waits until the terminal confirmed it. */
async function refund(payment: string, amount: number): Promise<void> {
  await sim.next({ outcome: 'approve' });
  expect((await write.post(`/payments/${payment}/refund`, { amount })).status).toBe(202);
  await expect.poll(async () => (await read.get(`/payments/${payment}`)).body.data).toMatchObject({ state: 'partially-refunded', refunded: amount });
}

/** An instant after every write so far, and a later edit of `order` that has nothing to do with its refund. */
async function instantThenUnrelatedEdit(order: string): Promise<string> {
  const confirmed = Date.now();
  await expect.poll(() => Date.now()).toBeGreaterThan(confirmed);
  const to = new Date().toISOString();
  await expect.poll(() => Date.now()).toBeGreaterThan(Date.parse(to));
  expect((await write.post(`/orders/${order}`, { transactionMessage: 'Beleg nachgedruckt' })).status).toBe(200);
  return to;
}

const supplierOf = (settlement: any, supplier: string) => settlement.suppliers.find((s: { supplier: string }) => s.supplier === supplier);

describe('a card refund after settlement', () => {
  it('enters the next settlement as negative amounts for each supplier of the sale, and leaves the closed one as it was', async () => {
    const { brunner, eggli } = shop.suppliers;
    // Bergkäse 1 kg (Brunner) 28.90 and Brot (Eggli) 6.00, both at the Dorf's 20 %.
    const { order, payment } = await cardSale([[shop.products.kaese, 1], [shop.products.brot, 1]], 3490);
    const first = await write.post('/settlements', { to: new Date().toISOString() });
    expect(first.status).toBe(201);
    const closed = (await read.get(`/settlements/${first.body.id}`)).body.data;
    expect(closed.totals).toEqual({ gross: 3490, margin: 698, payout: 2792 });

    await refund(payment, 1000);
    // The order changes again after `to`: the refund was confirmed before it, and counts.
    const to = await instantThenUnrelatedEdit(order);
    const next = await write.post('/settlements', { to });
    expect(next.status).toBe(201);
    const settled = (await read.get(`/settlements/${next.body.id}`)).body.data;
    // 10.00 spread by price over 28.90 and 6.00: 8.28 and 1.72; 20 % of each rounded half up.
    expect(settled.totals).toEqual({ gross: -1000, margin: -200, payout: -800 });
    expect(supplierOf(settled, brunner)).toMatchObject({ gross: -828, margin: -166, payout: -662, lines: 1 });
    expect(supplierOf(settled, eggli)).toMatchObject({ gross: -172, margin: -34, payout: -138, lines: 1 });
    const lines = server.sqlite().prepare('SELECT kind, supplier, quantity, amount FROM settlement_lines WHERE settlement_id = ? ORDER BY amount').all(next.body.id);
    expect(lines).toEqual([
      { kind: 'refund', supplier: brunner, quantity: 0, amount: -828 },
      { kind: 'refund', supplier: eggli, quantity: 0, amount: -172 },
    ]);
    expect((await read.get(`/settlements/${first.body.id}`)).body.data).toEqual(closed);
    expect((await write.post('/settlements', { to: new Date().toISOString() })).status).toBe(409);
  });
});

describe('a card refund before settlement', () => {
  it('lowers the sale it refunds when confirmed before `to`, though the order changed after', async () => {
    const { eggli } = shop.suppliers;
    const { order, payment } = await cardSale([[shop.products.brot, 2]], 1200);
    await refund(payment, 500);
    const to = await instantThenUnrelatedEdit(order);
    const res = await write.post('/settlements', { to });
    expect(res.status).toBe(201);
    const settled = (await read.get(`/settlements/${res.body.id}`)).body.data;
    expect(settled.totals).toEqual({ gross: 700, margin: 140, payout: 560 });
    expect(supplierOf(settled, eggli)).toMatchObject({ gross: 700, lines: 1 });
  });

  it('waits for the next settlement when confirmed after `to`', async () => {
    const { payment } = await cardSale([[shop.products.brot, 1]], 600);
    const to = new Date().toISOString();
    await expect.poll(() => Date.now()).toBeGreaterThan(Date.parse(to));
    await refund(payment, 600 - 100);
    const sale = await write.post('/settlements', { to });
    expect((await read.get(`/settlements/${sale.body.id}`)).body.data.totals).toEqual({ gross: 600, margin: 120, payout: 480 });
    const later = await write.post('/settlements', { to: new Date().toISOString() });
    expect(later.status).toBe(201);
    expect((await read.get(`/settlements/${later.body.id}`)).body.data.totals).toEqual({ gross: -500, margin: -100, payout: -400 });
  });
});
