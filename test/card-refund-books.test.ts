import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taxOf } from '../shared/order-pricing.js';
import { localDate } from '../shared/time-zones.js';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/**
 * The books follow the money: a card refund changes its order and the day's
 * report on the day the terminal gave the money back, and the report names
 * card money no sale accounts for. The shop is a store PC that syncs to its
 * upstream, so the order's new payment state is seen there too.
 */

let sim: TerminalSimulator;
let printer: FakePrinter;
let pair: SyncPair;
let write: Api;
let kiosk: Api;
let store: string;
let bread: string;
let wine: string;
const TIME_ZONE = 'Europe/Zurich';

/** Bread at 2.6 % VAT, wine at 8.1 %. */
const BREAD = 420;
const WINE = 1580;

beforeAll(async () => {
  [sim, printer] = await Promise.all([startTerminalSimulator(), startFakePrinter()]);
  // The follow-up waits ten minutes: what a test sees in between stays put.
  pair = await startSyncPair({ local: { terminalNetwork: TEST_TERMINAL_NETWORK, printerNetwork: TEST_PRINTER_NETWORK, paymentPace: { firstMs: 600_000, maxMs: 600_000 } } });
  write = pair.write;
  store = (await write.post('/stores', { name: 'Hofladen Müller', timeZone: TIME_ZONE })).body.id;
  bread = (await write.post('/products', { name: 'Bauernbrot', price: BREAD, taxCategory: '2.6' })).body.id;
  wine = (await write.post('/products', { name: 'Pinot Noir', price: WINE, taxCategory: '8.1' })).body.id;
  kiosk = api(pair.local.url, (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk 1' })).body.key);
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await write.post('/terminals', { store, name: 'Terminal 1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
});
afterAll(async () => {
  await pair?.destroy();
  await Promise.all([sim?.stop(), printer?.close()]);
});

let sales = 0;
const newReference = () => `sale-${Date.now()}-${++sales}`;
const today = () => localDate(Date.now(), TIME_ZONE);
const report = async (date = today()) => (await write.get(`/reports/daily?store=${store}&date=${date}`)).body.data;

async function approved(reference: string, amount: number): Promise<any> {
  await sim.next({ outcome: 'approve', brand: 'visa' });
  const id = (await kiosk.post('/payments', { store, amount, currency: 'CHF', reference })).body.data.id;
  let payment: any;
  await expect
    .poll(async () => {
      payment = (await kiosk.get(`/payments/${id}`)).body.data;
      return payment.state;
    })
    .toBe('approved');
  return payment;
}

/** A card sale of one bread and one wine, recorded with its payment (by a write key, at `orderDate` when given). */
async function cardSale(orderDate?: string): Promise<{ payment: any; order: string }> {
  const reference = newReference();
  const payment = await approved(reference, BREAD + WINE);
  const lines = [
    { productId: bread, quantity: 1 },
    { productId: wine, quantity: 1 },
  ];
  const res = await write.post('/orders', { store, orderId: reference, products: lines, payment: payment.id, ...(orderDate ? { orderDate } : {}) });
  expect(res.status).toBe(200);
  return { payment, order: res.body.id };
}

describe('a card refund', () => {
  it("sets its order's paymentState and refunded, here and at the upstream", async () => {
    const { payment, order } = await cardSale();
    expect((await write.get(`/orders/${order}`)).body.data).not.toHaveProperty('refunded');
    expect((await write.post(`/payments/${payment.id}/refund`, { amount: 500 })).body.data).toMatchObject({ state: 'partially-refunded', refunded: 500, order });
    expect((await write.get(`/orders/${order}`)).body.data).toMatchObject({ paymentState: 'partially-refunded', refunded: 500 });
    expect((await write.post(`/payments/${payment.id}/refund`, {})).body.data).toMatchObject({ state: 'refunded', refunded: BREAD + WINE });
    expect((await write.get(`/orders/${order}`)).body.data).toMatchObject({ paymentState: 'refunded', refunded: BREAD + WINE });

    const day = new Date(Date.now() - 86_400_000).toISOString();
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    await expect
      .poll(async () => {
        const orders = (await pair.up.get(`/orders?start=${day}&end=${tomorrow}&limit=100`)).body.data as any[];
        return orders.find((o) => o.orderId === payment.reference);
      }, { timeout: 20_000 })
      .toMatchObject({ paymentState: 'refunded', refunded: BREAD + WINE });
  });

  it("is taken off the day's total, the card row, the card total and each VAT rate in proportion to the order's gross", async () => {
    const before = await report();
    const { payment } = await cardSale();
    const sold = await report();
    expect(sold.total - before.total).toBe(BREAD + WINE);
    expect((await write.post(`/payments/${payment.id}/refund`, { amount: 1000 })).status).toBe(202);
    const after = await report();
    expect(after.sales).toBe(sold.sales);
    expect(after.total).toBe(sold.total - 1000);
    expect(after.refunds.refunds - sold.refunds.refunds).toBe(1);
    expect(after.refunds.total - sold.refunds.total).toBe(1000);
    const cardRow = (r: any) => r.byPaymentMethod.find((p: any) => p.paymentMethod === 'card' && p.paymentBrand === 'visa');
    expect(cardRow(after).total).toBe(cardRow(sold).total - 1000);
    expect(after.card.total).toBe(sold.card.total - 1000);
    // 1000 split over 420 at 2.6 % and 1580 at 8.1 %: 210 and 790.
    const rate = (r: any, taxRate: number) => r.byTaxRate.find((t: any) => t.taxRate === taxRate);
    expect(rate(sold, 0.026).gross - rate(after, 0.026).gross).toBe(210);
    expect(rate(sold, 0.081).gross - rate(after, 0.081).gross).toBe(790);
    expect(rate(sold, 0.026).tax - rate(after, 0.026).tax).toBe(taxOf(210, 0.026));
    expect(rate(sold, 0.081).tax - rate(after, 0.081).tax).toBe(taxOf(790, 0.081));
    expect(after.byTaxRate.reduce((n: number, t: any) => n + t.gross, 0)).toBe(after.total - after.deposits);
    expect(after.byPaymentMethod.reduce((n: number, p: any) => n + p.total, 0)).toBe(after.total);
  });

  it("of yesterday's sale counts on the day of the refund; the sale still counts on its own day", async () => {
    const yesterdayAt = new Date(Date.now() - 86_400_000);
    const yesterday = localDate(yesterdayAt.getTime(), TIME_ZONE);
    const { payment } = await cardSale(yesterdayAt.toISOString());
    const [soldDay, refundDayBefore] = [await report(yesterday), await report()];
    expect((await write.post(`/payments/${payment.id}/refund`, {})).status).toBe(202);
    const [soldDayAfter, refundDay] = [await report(yesterday), await report()];
    expect(soldDayAfter.total).toBe(soldDay.total);
    expect(soldDayAfter.sales).toBe(soldDay.sales);
    expect(refundDay.total).toBe(refundDayBefore.total - (BREAD + WINE));
    expect(refundDay.sales).toBe(refundDayBefore.sales);
  });
});

describe("the day's report flags card money without a sale", () => {
  it('an approved payment no order names, until it is refunded', async () => {
    const payment = await approved(newReference(), BREAD);
    const flagged = (await report()).cardWarnings.find((w: any) => w.payment === payment.id);
    expect(flagged).toEqual({ kind: 'payment-without-order', payment: payment.id, amount: BREAD, currency: 'CHF', createdAt: payment.createdAt, message: null });
    await write.post(`/payments/${payment.id}/refund`, {});
    expect((await report()).cardWarnings.map((w: any) => w.payment)).not.toContain(payment.id);
  });

  it('a refused approval the terminal has not reversed yet, with what it charged', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', amount: 4200 });
    await sim.next({ outcome: 'busy' });
    const id = (await kiosk.post('/payments', { store, amount: BREAD, currency: 'CHF', reference })).body.data.id;
    await expect.poll(async () => (await kiosk.get(`/payments/${id}`)).body.data.refusal?.reversed).toBe(false);
    const flagged = (await report()).cardWarnings.find((w: any) => w.payment === id);
    expect(flagged).toMatchObject({ kind: 'reversal-pending', amount: 4200, currency: 'CHF' });
    await write.post(`/payments/${id}/refund`, {});
    expect((await report()).cardWarnings.map((w: any) => w.payment)).not.toContain(id);
  });
});

describe('the printed day\'s report', () => {
  it("has the card section: brand totals beside the terminal's, the difference, the day's refunds and the warnings", async () => {
    const payment = await approved(newReference(), BREAD);
    const printerId = (await write.post('/printers', { store, name: 'Kasse 1', host: printer.host, port: printer.port })).body.id;
    const res = await write.post('/reports/daily/print', { store, date: today(), printer: printerId, language: 'en' });
    expect(res.body.data.printed).toBe(true);
    const lines = (printer.jobs.at(-1) as { lines: string[] }).lines;
    const day = await report();
    const money = (cents: number) => (cents / 100).toFixed(2);
    expect(lines).toContain('Cards');
    expect(lines).toContain('Till Terminal Difference');
    expect(lines.some((line) => /^visa -?\d+\.\d\d -?\d+\.\d\d -?\d+\.\d\d$/.test(line))).toBe(true);
    expect(lines.some((line) => /^Total -?\d+\.\d\d -?\d+\.\d\d -?\d+\.\d\d$/.test(line))).toBe(true);
    expect(lines).toContain(`Refunds (${day.refunds.refunds}) -${money(day.refunds.total)}`);
    expect(lines).toContain('WARNING');
    expect(lines.some((line) => line.startsWith('Payment without a sale') && line.endsWith(`CHF ${money(BREAD)}`))).toBe(true);

    const cli = await runCli(pair.local.dataDir, ['report', 'daily', '--store', store, '--date', today()]);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain(`Card refunds: ${day.refunds.refunds}, ${money(day.refunds.total)} (taken off the totals above)`);
    expect(cli.stdout).toContain(`  payment ${payment.id}: approved, no sale recorded, CHF ${money(BREAD)}`);
    await write.post(`/payments/${payment.id}/refund`, {});
  });
});
