import Database from 'better-sqlite3';
import { Writable } from 'node:stream';
import { readFileSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { api, type Api } from './support/api.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

let sim: TerminalSimulator;
let server: TestServer;
let org: TestOrg;
let write: Api;
let kiosk: Api;
let store: string;
let otherStore: string;
let product: string;
let terminal: string;
let printer: FakePrinter;
const logLines: string[] = [];

/** Gipfeli at 1.40: a sale of n of them totals 140 x n cents. */
const UNIT = 140;

beforeAll(async () => {
  [sim, printer] = await Promise.all([startTerminalSimulator(), startFakePrinter()]);
  const logger = pino({ level: 'trace' }, new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
  server = await startTestServer({ logger, terminalNetwork: TEST_TERMINAL_NETWORK, printerNetwork: TEST_PRINTER_NETWORK, paymentPace: { firstMs: 100, maxMs: 400 } });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  store = (await write.post('/stores', { name: 'Hofladen Müller' })).body.id;
  otherStore = (await write.post('/stores', { name: 'Laden Zwei' })).body.id;
  product = (await write.post('/products', { name: 'Gipfeli', price: UNIT, taxCategory: '2.6' })).body.id;
  kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk 1' })).body.key);
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const res = await write.post('/terminals', { store, name: 'Terminal 1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate });
  expect(res.status).toBe(201);
  terminal = res.body.id;
});
afterAll(async () => {
  await server?.destroy();
  await Promise.all([sim?.stop(), printer?.close()]);
});

let sales = 0;
const newReference = () => `sale-${Date.now()}-${++sales}`;
const pay = (reference: string, amount: number, client = kiosk) => client.post('/payments', { store, amount, currency: 'CHF', reference });

/** Follows the payment until it is settled, as the kiosk does. */
async function settled(id: string, client = kiosk): Promise<any> {
  let payment: any;
  await expect
    .poll(async () => {
      payment = (await client.get(`/payments/${id}`)).body.data;
      return payment.state;
    })
    .not.toMatch(/^(pending|unknown|refunding)$/);
  return payment;
}

const sell = (reference: string, quantity: number, extra: Record<string, unknown> = {}, client = kiosk) =>
  client.post('/orders', { store, orderId: reference, products: [{ productId: product, quantity }], ...extra });

const ofReference = async (reference: string) => (await sim.transactions()).filter((t) => t.reference === reference);

describe('POST /terminals', () => {
  it('registers the simulator, lists it without its passphrase, and keeps the passphrase sealed', async () => {
    const list = await write.get('/terminals');
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ id: terminal, store, name: 'Terminal 1', protocol: 'nexo-local', host: '127.0.0.1', port: sim.ready.port, poiId: sim.ready.poiId }]);
    expect((await kiosk.get('/terminals')).body.data.map((t: { id: string }) => t.id)).toEqual([terminal]);
    const row = server.sqlite().prepare('SELECT sealed_passphrase FROM terminals WHERE id = ?').get(terminal) as { sealed_passphrase: string };
    expect(row.sealed_passphrase).not.toContain(sim.ready.passphrase);
  });

  it('refuses a kiosk key, a public address, another port on the LAN and a body without a certificate', async () => {
    const body = { store, name: 'T', protocol: 'nexo-local', host: '192.168.1.60', poiId: 'P', keyIdentifier: 'K', keyVersion: 1, passphrase: 'secret', certificate: sim.ready.certificate };
    expect((await kiosk.post('/terminals', body)).status).toBe(403);
    const publicAddress = await write.post('/terminals', { ...body, host: '8.8.8.8' });
    expect(publicAddress.status).toBe(400);
    expect(publicAddress.body.message).toContain('TERMINAL_ALLOW_ADDRESSES');
    const otherPort = await write.post('/terminals', { ...body, port: 9000 });
    expect(otherPort.status).toBe(400);
    expect(otherPort.body.message).toContain("Terminal API's port 8443");
    const noCertificate = await write.post('/terminals', { ...body, certificate: 'hello' });
    expect(noCertificate.status).toBe(400);
    expect(noCertificate.body.message).toContain('certificate');
  });

  it("refuses a terminal at an address of one of this PC's interfaces, on the Terminal API's port too", async () => {
    const own = Object.values(networkInterfaces())
      .flatMap((list) => list ?? [])
      .find((entry) => !entry.internal && !entry.address.startsWith('fe80'))!.address;
    const body = { store, name: 'T', protocol: 'nexo-local', host: own.includes(':') ? `[${own}]` : own, port: 8443, poiId: 'P', keyIdentifier: 'K', keyVersion: 1, passphrase: 'secret', certificate: sim.ready.certificate };
    const res = await write.post('/terminals', body);
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining("is one of this PC's own addresses") });
    expect((await write.get('/terminals')).body.data.map((t: { id: string }) => t.id)).toEqual([terminal]);
  });
});

describe('a card sale', () => {
  it('is approved, carries the terminal receipt lines exactly, and pays exactly one order of its amount', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', brand: 'visa' });
    const started = await pay(reference, 3 * UNIT);
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ store, terminal, reference, amount: 420, currency: 'CHF', state: 'pending', brand: null, receipt: { customer: [], cashier: [] } });
    const payment = await settled(started.body.data.id);
    expect(payment).toMatchObject({ state: 'approved', brand: 'visa', maskedPan: '541333 **** 0004', message: null });
    expect(payment.receipt.customer).toContain('key=header1&name=Terminal+simulator');
    expect(payment.receipt.customer).toContain('key=copy&name=Cardholder+copy');
    expect(payment.receipt.customer).toContain('key=totalAmount&name=Total&value=CHF+4.20');
    expect(payment.receipt.cashier).toContain('key=copy&name=Merchant+copy');

    expect((await sell(reference, 2, { payment: payment.id })).status).toBe(422);
    const order = await sell(reference, 3, { payment: payment.id, paymentMethod: 'card' });
    expect(order.status).toBe(200);
    const stored = (await kiosk.get(`/orders/${order.body.id}`)).body.data;
    expect(stored).toMatchObject({ paymentState: 'successful', paymentMethod: 'card', paymentBrand: 'visa', price: 420 });
    // The same sale resent (the journal after a crash) is the same order; another sale cannot use the payment.
    expect((await sell(reference, 3, { payment: payment.id })).body.id).toBe(order.body.id);
    const second = await sell(newReference(), 3, { payment: payment.id });
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('already pays order');
    expect(await ofReference(reference)).toHaveLength(1);
  });

  it("refuses a kiosk's card sale without a payment, and one with a payment that is not approved", async () => {
    const noPayment = await sell(newReference(), 1, { paymentMethod: 'card' });
    expect(noPayment.status).toBe(422);
    expect(noPayment.body.message).toContain('POST /payments');
    await sim.next({ outcome: 'decline' });
    const declined = await settled((await pay(newReference(), UNIT)).body.data.id);
    const withDeclined = await sell(newReference(), 1, { payment: declined.id });
    expect(withDeclined.status).toBe(422);
    expect(withDeclined.body.message).toContain('is declined');
  });

  it('is declined with what the terminal said', async () => {
    await sim.next({ outcome: 'decline' });
    const payment = await settled((await pay(newReference(), UNIT)).body.data.id);
    expect(payment).toMatchObject({ state: 'declined', message: 'Refusal: Not enough balance', brand: null });
    expect(payment.receipt.customer).toContain('key=approved&name=DECLINED');
  });

  it('is cancelled when the customer cancels on the terminal', async () => {
    await sim.next({ outcome: 'cancel' });
    expect(await settled((await pay(newReference(), UNIT)).body.data.id)).toMatchObject({ state: 'cancelled', message: 'Cancel', reason: null });
  });

  it('is cancelled with the reason terminal-not-reached when the terminal is off the network, and nothing was sent', async () => {
    await sim.unreachable();
    try {
      await expect.poll(async () => (await kiosk.post(`/terminals/${terminal}/check`)).body.data.reachable).toBe(false);
      const cancelled = await settled((await pay(newReference(), UNIT)).body.data.id);
      expect(cancelled).toMatchObject({ state: 'cancelled', reason: 'terminal-not-reached' });
    } finally {
      await sim.reachable();
    }
  });

  it('is cancelled when the kiosk cancels before the customer pays', async () => {
    await sim.next({ outcome: 'approve', delayMs: 5000 });
    const started = (await pay(newReference(), UNIT)).body.data;
    const cancel = await kiosk.post(`/payments/${started.id}/cancel`);
    expect(cancel.status).toBe(202);
    expect((await settled(started.id)).state).toBe('cancelled');
  });

  it('stays approved when the kiosk cancels after the terminal approved', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'lose-answer' });
    const started = (await pay(reference, UNIT)).body.data;
    await expect.poll(async () => (await ofReference(reference))[0]?.state).toBe('approved');
    const cancel = await kiosk.post(`/payments/${started.id}/cancel`);
    expect(cancel.status).toBe(202);
    expect(cancel.body.data.state).not.toBe('cancelled');
    expect((await settled(started.id)).state).toBe('approved');
    expect((await kiosk.post(`/payments/${started.id}/cancel`)).body.data.state).toBe('approved');
  });

  it('is declined when the terminal is busy, and the sale may try again', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'busy' });
    const busy = await settled((await pay(reference, UNIT)).body.data.id);
    expect(busy).toMatchObject({ state: 'declined', reason: 'terminal-busy' });
    expect(busy.message).toContain('busy');
    await sim.next({ outcome: 'approve' });
    expect((await settled((await pay(reference, UNIT)).body.data.id)).state).toBe('approved');
    expect((await kiosk.get(`/payments?reference=${reference}`)).body.data.map((p: { state: string }) => p.state)).toEqual(['declined', 'approved']);
  });
});

describe('a lost answer', () => {
  it('after the approval: the status query says approved', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'lose-answer', brand: 'maestro' });
    const payment = await settled((await pay(reference, 2 * UNIT)).body.data.id);
    expect(payment).toMatchObject({ state: 'approved', brand: 'maestro' });
    expect(payment.receipt.customer).toContain('key=cardBrand&name=Brand&value=maestro');
    expect((await sell(reference, 2, { payment: payment.id })).status).toBe(200);
  });

  it('while the customer is still paying: unknown, in progress, then approved', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'lose-answer', delayMs: 1500 });
    const id = (await pay(reference, UNIT)).body.data.id;
    await expect.poll(async () => (await kiosk.get(`/payments/${id}`)).body.data.state).toBe('unknown');
    expect((await ofReference(reference))[0]?.state).toBe('in-progress');
    expect((await settled(id)).state).toBe('approved');
  });

  it('that never reached the terminal: not found, cancelled, nothing charged', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'ignore' });
    const payment = await settled((await pay(reference, UNIT)).body.data.id);
    expect(payment).toMatchObject({ state: 'cancelled', message: 'The terminal has no record of this payment: nothing was charged', reason: 'unknown-to-terminal' });
    expect(await ofReference(reference)).toEqual([]);
  });

  it('while the terminal is unreachable: the sale stays locked, no second charge, then it settles', async () => {
    const reference = newReference();
    const check = async () => (await kiosk.post(`/terminals/${terminal}/check`)).body.data;
    expect(await check()).toEqual({ terminal, reachable: true, message: null });
    await sim.next({ outcome: 'lose-answer', delayMs: 300 });
    const id = (await pay(reference, UNIT)).body.data.id;
    await expect.poll(async () => (await kiosk.get(`/payments/${id}`)).body.data.state).toBe('unknown');
    await sim.unreachable();
    await expect.poll(async () => (await check()).reachable).toBe(false);
    expect((await check()).message).toContain('could not be reached');
    await expect.poll(async () => (await kiosk.get(`/payments/${id}`)).body.data.message).toContain('does not answer');
    const again = await pay(reference, UNIT);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain(`GET /payments/${id}`);
    expect((await kiosk.get(`/payments/${id}`)).body.data.state).toBe('unknown');
    await sim.reachable();
    expect((await settled(id)).state).toBe('approved');
    expect(await ofReference(reference)).toHaveLength(1);
  });

  it("of an old transaction is applied to that one only, not to the next sale's", async () => {
    const old = newReference();
    const next = newReference();
    await sim.next({ outcome: 'lose-answer', delayMs: 1200 });
    const oldId = (await pay(old, UNIT)).body.data.id;
    await expect.poll(async () => (await kiosk.get(`/payments/${oldId}`)).body.data.state).toBe('unknown');
    // The terminal is still busy with the old customer: the new sale's attempt is refused, not approved.
    const newId = (await pay(next, 2 * UNIT)).body.data.id;
    expect((await settled(oldId)).state).toBe('approved');
    expect((await settled(newId)).state).toBe('declined');
    await sim.next({ outcome: 'approve' });
    const retried = await settled((await pay(next, 2 * UNIT)).body.data.id);
    expect(retried.state).toBe('approved');
    expect(retried.id).not.toBe(oldId);
    const rows = server.sqlite().prepare('SELECT reference, state, amount FROM payments WHERE id IN (?, ?, ?) ORDER BY created_at').all(oldId, newId, retried.id);
    expect(rows).toEqual([
      { reference: old, state: 'approved', amount: UNIT },
      { reference: next, state: 'declined', amount: 2 * UNIT },
      { reference: next, state: 'approved', amount: 2 * UNIT },
    ]);
  });
});

describe('a double tap and a reload', () => {
  it('resume the same payment and never start a second one', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', delayMs: 800 });
    const [a, b] = await Promise.all([pay(reference, UNIT), pay(reference, UNIT)]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const first = (a.status === 202 ? a : b).body.data;
    // The reloaded page finds its sale's payment by reference and follows it.
    const found = (await kiosk.get(`/payments?reference=${reference}`)).body.data;
    expect(found.map((p: { id: string }) => p.id)).toEqual([first.id]);
    expect((await settled(first.id)).state).toBe('approved');
    expect(await ofReference(reference)).toHaveLength(1);
  });
});

describe('an approval of another amount or currency', () => {
  it.each([
    ['amount', { amount: 999 }, 'CHF 9.99'],
    ['currency', { currency: 'EUR' }, 'EUR 1.40'],
  ])('is refused and reversed when the %s differs, and tells staff', async (_what, order, shown) => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', ...order });
    const payment = await settled((await pay(reference, UNIT)).body.data.id);
    expect(payment.state).toBe('refunded');
    expect(payment.message).toBe(`Refused: the terminal approved ${shown} for a payment of CHF 1.40; the approval was reversed`);
    const [t] = await ofReference(reference);
    expect(t?.refunded).toBe(t?.amount);
    expect((await sell(reference, 1, { payment: payment.id })).status).toBe(422);
    expect(logLines.some((line) => line.includes('card payment refused') && line.includes(payment.id))).toBe(true);
  });
});

describe('POST /payments/{id}/refund', () => {
  it('refunds in part and then the rest, with a write key only', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve' });
    const id = (await settled((await pay(reference, 10 * UNIT)).body.data.id)).id;
    expect((await kiosk.post(`/payments/${id}/refund`, { amount: 100 })).status).toBe(403);
    const part = await write.post(`/payments/${id}/refund`, { amount: 400 });
    expect(part.status).toBe(202);
    expect(part.body.data.state).toBe('partially-refunded');
    const tooMuch = await write.post(`/payments/${id}/refund`, { amount: 1001 });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toContain('at most 1000 cents');
    const rest = await write.post(`/payments/${id}/refund`, {});
    expect(rest.body.data.state).toBe('refunded');
    expect((await ofReference(reference))[0]?.refunded).toBe(1400);
    expect((await write.post(`/payments/${id}/refund`, {})).status).toBe(409);
  });
});

describe('the receipt printer fails after the approval', () => {
  it('leaves the payment and the order standing, and the receipt prints again', async () => {
    const printerId = (await write.post('/printers', { store, name: 'Kasse', host: printer.host, port: printer.port })).body.id;
    const reference = newReference();
    await sim.next({ outcome: 'approve' });
    const payment = await settled((await pay(reference, UNIT)).body.data.id);
    const orderId = (await sell(reference, 1, { payment: payment.id })).body.id;
    printer.setPaperOut(true);
    const failed = await kiosk.post(`/receipts/${orderId}/print`, { printer: printerId });
    expect(failed.body.data).toMatchObject({ printed: false, state: 'paperOut' });
    expect((await kiosk.get(`/payments/${payment.id}`)).body.data.state).toBe('approved');
    printer.setPaperOut(false);
    const job = printer.nextJob();
    expect((await kiosk.post(`/receipts/${orderId}/print`, { printer: printerId })).body.data.printed).toBe(true);
    expect((await job).lines.join('\n')).toContain('Gipfeli');
  });
});

describe('an approved payment whose sale is never recorded', () => {
  it('stays open for staff, with the payments of the day, until a sale names it', async () => {
    const since = new Date().toISOString();
    const reference = newReference();
    await sim.next({ outcome: 'approve' });
    const id = (await settled((await pay(reference, UNIT)).body.data.id)).id;
    const open = await write.get('/payments?unrecorded=true');
    expect(open.status).toBe(200);
    expect(open.body.data.map((p: { id: string }) => p.id)).toContain(id);
    expect((await write.get(`/payments?since=${encodeURIComponent(since)}&store=${store}`)).body.data.map((p: { id: string }) => p.id)).toEqual([id]);
    expect((await sell(reference, 1, { payment: id })).status).toBe(200);
    expect((await write.get('/payments?unrecorded=true')).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    const neither = await write.get('/payments');
    expect(neither.status).toBe(400);
    expect(neither.body.error.fieldErrors.reference).toEqual(['name reference, since or unrecorded=true']);
  });
});

describe('GET /terminals/{id}/totals', () => {
  it("gives the terminal's own totals per brand, approved minus reversed, to a read key", async () => {
    await sim.next({ outcome: 'approve', brand: 'twint' });
    await settled((await pay(newReference(), 3 * UNIT)).body.data.id);
    const approved = (await sim.transactions()).filter((t) => t.state === 'approved');
    const expected = [...new Set(approved.map((t) => t.brand))].sort().map((brand) => {
      const of = approved.filter((t) => t.brand === brand);
      return { brand, count: of.length, amount: of.reduce((n, t) => n + t.amount - t.refunded, 0) };
    });
    const res = await api(server.url, org.readKey).get(`/terminals/${terminal}/totals`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ terminal, totals: expected });
    expect(res.body.data.totals).toContainEqual({ brand: 'twint', count: 1, amount: 3 * UNIT });
    expect((await kiosk.get(`/terminals/${terminal}/totals`)).status).toBe(403);
    expect((await write.get('/terminals/no-such-terminal/totals')).status).toBe(404);
  });
});

describe('who may see a payment', () => {
  it("answers a kiosk key of another store 404, and refuses it a payment at this store", async () => {
    await sim.next({ outcome: 'approve' });
    const reference = newReference();
    const id = (await settled((await pay(reference, UNIT)).body.data.id)).id;
    const other = api(server.url, (await write.post('/keys', { kind: 'kiosk', store: otherStore, name: 'Kiosk B' })).body.key);
    expect((await other.get(`/payments/${id}`)).status).toBe(404);
    expect((await other.post(`/payments/${id}/cancel`)).status).toBe(404);
    expect((await other.get(`/payments?reference=${reference}`)).body.data).toEqual([]);
    expect((await pay(newReference(), UNIT, other)).status).toBe(403);
    expect((await other.post('/payments', { store: otherStore, amount: UNIT, currency: 'CHF', reference: newReference() })).status).toBe(422);
  });
});

describe('the passphrase', () => {
  it('is in no answer, no log line and not in the database file', async () => {
    const answers = await Promise.all(['/terminals', '/openapi.json'].map((path) => write.get(path)));
    for (const answer of answers) expect(JSON.stringify(answer.body)).not.toContain(sim.ready.passphrase);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(sim.ready.passphrase);
    // Copied into the file as the server's own checkpoints do, by a connection that may write (a read-only one may not checkpoint).
    const writer = new Database(join(server.dataDir, DATABASE_FILE));
    try {
      writer.pragma('busy_timeout = 5000');
      writer.pragma('wal_checkpoint(PASSIVE)');
    } finally {
      writer.close();
    }
    expect(readFileSync(join(server.dataDir, DATABASE_FILE)).includes(Buffer.from(sim.ready.passphrase))).toBe(false);
  });
});
