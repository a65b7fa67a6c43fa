import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/**
 * One charge per sale and refunds the terminal and the server agree on, with
 * the simulator losing, delaying and refusing answers. `quick` follows a lost
 * answer within a fraction of a second; `slow` waits ten minutes before it asks
 * again, so a test sees the state in between, and a restart has to settle it.
 */

interface Till {
  server: TestServer;
  keys: { write: string; kiosk: string };
  write: Api;
  kiosk: Api;
  store: string;
  product: string;
}

let sim: TerminalSimulator;
let quick: Till;
let slow: Till;
const logLines: string[] = [];

/** Gipfeli at 1.40. */
const UNIT = 140;
const QUICK_PACE = { firstMs: 100, maxMs: 400 };
const SLOW_PACE = { firstMs: 600_000, maxMs: 600_000 };

async function setUp(server: TestServer): Promise<Till> {
  const org = server.createOrg();
  const write = api(server.url, org.writeKey);
  const store = (await write.post('/stores', { name: 'Hofladen Müller' })).body.id;
  const product = (await write.post('/products', { name: 'Gipfeli', price: UNIT, taxCategory: '2.6' })).body.id;
  const kioskKey = (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk 1' })).body.key as string;
  const kiosk = api(server.url, kioskKey);
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const res = await write.post('/terminals', { store, name: 'Terminal 1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate });
  expect(res.status).toBe(201);
  return { server, keys: { write: org.writeKey, kiosk: kioskKey }, write, kiosk, store, product };
}

/** The same till against its server started again on the same data folder. */
const rebind = (till: Till, server: TestServer): Till => ({ ...till, server, write: api(server.url, till.keys.write), kiosk: api(server.url, till.keys.kiosk) });

beforeAll(async () => {
  sim = await startTerminalSimulator();
  const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (logLines.push(String(chunk)), done()) }));
  const [a, b] = await Promise.all([
    startTestServer({ logger, terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: QUICK_PACE }),
    startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: SLOW_PACE }),
  ]);
  [quick, slow] = await Promise.all([setUp(a), setUp(b)]);
});
afterAll(async () => {
  await Promise.all([quick?.server.destroy(), slow?.server.destroy()]);
  await sim?.stop();
});

let sales = 0;
const newReference = () => `sale-${Date.now()}-${++sales}`;
const pay = (till: Till, reference: string, amount: number, store = till.store) => till.kiosk.post('/payments', { store, amount, currency: 'CHF', reference });
const sell = (till: Till, reference: string, quantity: number, payment: string) =>
  till.kiosk.post('/orders', { store: till.store, orderId: reference, products: [{ productId: till.product, quantity }], payment });
const ofReference = async (reference: string) => (await sim.transactions()).filter((t) => t.reference === reference);

/** Follows the payment until it is in one of `states`, as the staff page does. */
async function reaches(till: Till, id: string, states: RegExp): Promise<any> {
  let payment: any;
  await expect
    .poll(async () => {
      payment = (await till.write.get(`/payments/${id}`)).body.data;
      return payment.state;
    })
    .toMatch(states);
  return payment;
}

/** An approved card sale of `quantity` Gipfeli, recorded as an order when `recorded`. */
async function approvedSale(till: Till, quantity: number, recorded: boolean): Promise<{ reference: string; payment: any; order: string | undefined }> {
  const reference = newReference();
  await sim.next({ outcome: 'approve' });
  const payment = await reaches(till, (await pay(till, reference, quantity * UNIT)).body.data.id, /^approved$/);
  const order = recorded ? (await sell(till, reference, quantity, payment.id)).body.id : undefined;
  return { reference, payment, order };
}

describe('POST /payments: one charge per sale', () => {
  it('answers 409 with the approved payment, also after its sale was recorded, and takes the same reference at another store', async () => {
    const { reference, payment, order } = await approvedSale(quick, 3, false);
    const again = await pay(quick, reference, 3 * UNIT);
    expect(again.status).toBe(409);
    expect(again.body.data).toMatchObject({ id: payment.id, state: 'approved', reference, order: null });
    expect(again.body.message).toContain(`GET /payments/${payment.id}`);
    expect(order).toBeUndefined();
    const orderId = (await sell(quick, reference, 3, payment.id)).body.id;
    const afterSale = await pay(quick, reference, 3 * UNIT);
    expect(afterSale.status).toBe(409);
    expect(afterSale.body.data).toMatchObject({ id: payment.id, order: orderId });
    expect(await ofReference(reference)).toHaveLength(1);

    const otherStore = (await quick.write.post('/stores', { name: 'Laden Zwei' })).body.id;
    const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
    await quick.write.post('/terminals', { store: otherStore, name: 'T2', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate });
    await sim.next({ outcome: 'approve' });
    const elsewhere = await quick.write.post('/payments', { store: otherStore, amount: UNIT, currency: 'CHF', reference });
    expect(elsewhere.status).toBe(202);
    expect((await reaches(quick, elsewhere.body.data.id, /^approved$/)).store).toBe(otherStore);
  });

  it('blocks a refunded sale, and lets a declined one be paid again', async () => {
    const { reference, payment } = await approvedSale(quick, 1, false);
    expect((await quick.write.post(`/payments/${payment.id}/refund`, {})).body.data.state).toBe('refunded');
    expect((await pay(quick, reference, UNIT)).body.data).toMatchObject({ id: payment.id, state: 'refunded' });

    const declined = newReference();
    await sim.next({ outcome: 'decline' });
    await reaches(quick, (await pay(quick, declined, UNIT)).body.data.id, /^declined$/);
    await sim.next({ outcome: 'approve' });
    const second = await pay(quick, declined, UNIT);
    expect(second.status).toBe(202);
    await reaches(quick, second.body.data.id, /^approved$/);
  });

  it('replays the first answer to a repeat with the same Idempotency-Key: one charge at the terminal', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', delayMs: 300 });
    const send = () =>
      quick.kiosk.request('POST', '/payments', {
        body: JSON.stringify({ store: quick.store, amount: UNIT, currency: 'CHF', reference }),
        headers: { 'content-type': 'application/json', 'Idempotency-Key': `pay-${reference}` },
      });
    const first = await send();
    const repeat = await send();
    expect(first.status).toBe(202);
    expect(repeat.status).toBe(202);
    expect(repeat.headers.get('Idempotent-Replayed')).toBe('true');
    expect(repeat.body.data.id).toBe(first.body.data.id);
    await reaches(quick, first.body.data.id, /^approved$/);
    expect(await ofReference(reference)).toHaveLength(1);
  });

  it('refuses more than the maximum per payment with 400, before the terminal hears of it', async () => {
    const reference = newReference();
    const res = await pay(quick, reference, 500_001);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('500000 cents');
    expect(res.body.message).toContain('PAYMENT_MAX_CENTS');
    expect(await ofReference(reference)).toHaveLength(0);
  });
});

describe('POST /payments/{id}/refund at the same time', () => {
  it('lets one refund out at a time: two of 100 give back 100 at the terminal and 100 here', async () => {
    const { reference, payment } = await approvedSale(quick, 5, true);
    await sim.next({ outcome: 'approve', delayMs: 400 });
    const answers = await Promise.all([quick.write.post(`/payments/${payment.id}/refund`, { amount: 100 }), quick.write.post(`/payments/${payment.id}/refund`, { amount: 100 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([202, 409]);
    const busy = answers.find((a) => a.status === 409)!;
    expect(busy.body.data).toMatchObject({ id: payment.id, state: 'refunding' });
    const [t] = await ofReference(reference);
    const now = (await quick.write.get(`/payments/${payment.id}`)).body.data;
    expect(now).toMatchObject({ state: 'partially-refunded', refunded: 100 });
    expect(t?.refunded).toBe(100);
  });

  it('five of 84 at once give back what the server records', async () => {
    const { reference, payment } = await approvedSale(quick, 3, true);
    await sim.next({ outcome: 'approve', delayMs: 300 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => quick.write.post(`/payments/${payment.id}/refund`, { amount: 84 })));
    expect(answers.filter((a) => a.status === 202)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    const [t] = await ofReference(reference);
    expect((await quick.write.get(`/payments/${payment.id}`)).body.data.refunded).toBe(t?.refunded);
    expect(t?.refunded).toBe(84);
  });
});

describe('a refund whose answer is lost', () => {
  it('stays refunding, locks the payment for refunds and orders, and ends with what the terminal gave back', async () => {
    const { reference, payment } = await approvedSale(quick, 5, false);
    await sim.next({ outcome: 'lose-answer', delayMs: 3000 });
    const refund = await quick.write.post(`/payments/${payment.id}/refund`, { amount: 200 });
    expect(refund.status).toBe(202);
    expect(refund.body.data).toMatchObject({ state: 'refunding', refunded: 0 });
    const second = await quick.write.post(`/payments/${payment.id}/refund`, { amount: 200 });
    expect(second.status).toBe(409);
    expect(second.body.data.state).toBe('refunding');
    const order = await sell(quick, reference, 5, payment.id);
    expect(order.status).toBe(409);
    expect(order.body.message).toContain('refunding');
    expect((await quick.write.get(`/payments?reference=${reference}`)).body.data[0].state).toBe('refunding');

    const settledPayment = await reaches(quick, payment.id, /^partially-refunded$/);
    const [t] = await ofReference(reference);
    expect(settledPayment.refunded).toBe(200);
    expect(t?.refunded).toBe(200);
  });

  it('that never reached the terminal gives nothing back: the payment is approved again', async () => {
    const { reference, payment } = await approvedSale(quick, 2, false);
    await sim.next({ outcome: 'ignore' });
    const refund = await quick.write.post(`/payments/${payment.id}/refund`, {});
    expect(refund.status).toBe(202);
    expect(refund.body.data.state).toBe('refunding');
    const after = await reaches(quick, payment.id, /^approved$/);
    expect(after.refunded).toBe(0);
    expect((await ofReference(reference))[0]?.refunded).toBe(0);
  });

  it('is settled at the next start when the server stopped while it was refunding', async () => {
    const { reference, payment } = await approvedSale(slow, 4, true);
    await sim.next({ outcome: 'lose-answer' });
    expect((await slow.write.post(`/payments/${payment.id}/refund`, {})).body.data.state).toBe('refunding');
    await expect.poll(async () => (await ofReference(reference))[0]?.refunded).toBe(4 * UNIT);
    expect((await slow.write.get(`/payments/${payment.id}`)).body.data.state).toBe('refunding');

    slow = rebind(slow, await slow.server.restart({ terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: SLOW_PACE }));
    const after = (await slow.write.get(`/payments/${payment.id}`)).body.data;
    expect(after).toMatchObject({ state: 'refunded', refunded: 4 * UNIT });
  });
});

describe('an approval of another amount whose reversal fails', () => {
  it('is reversed by retries until the terminal confirms, and then no longer blocks its sale', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', amount: 4200 });
    await sim.next({ outcome: 'decline' });
    await sim.next({ outcome: 'decline' });
    const id = (await pay(quick, reference, 420)).body.data.id;
    const reversed = await reaches(quick, id, /^refunded$/);
    expect(reversed).toMatchObject({ refunded: 4200, refusal: { amount: 4200, currency: 'CHF', reversed: true } });
    expect(reversed.message).toBe('Refused: the terminal approved CHF 42.00 for a payment of CHF 4.20; the approval was reversed');
    expect((await ofReference(reference))[0]?.refunded).toBe(4200);
    expect(logLines.filter((line) => line.includes('did not reverse a refused approval') && line.includes(id))).toHaveLength(2);
    await sim.next({ outcome: 'approve' });
    expect((await pay(quick, reference, 420)).status).toBe(202);
  });

  it('stays charged, reversal pending, on the open list, blocks its sale, and staff reverse it at once with a refund', async () => {
    const reference = newReference();
    await sim.next({ outcome: 'approve', amount: 4200 });
    await sim.next({ outcome: 'busy' });
    const id = (await pay(slow, reference, 420)).body.data.id;
    await expect.poll(async () => (await slow.write.get(`/payments/${id}`)).body.data.refusal).toEqual({ amount: 4200, currency: 'CHF', reversed: false });
    const pending = (await slow.write.get(`/payments/${id}`)).body.data;
    expect(pending).toMatchObject({ state: 'refunding', refunded: 0 });
    expect(pending.message).toContain('Refused: the terminal approved CHF 42.00 for a payment of CHF 4.20; reversing it');
    const open = (await slow.write.get(`/payments?store=${slow.store}&unrecorded=true`)).body.data;
    expect(open.map((p: { id: string }) => p.id)).toContain(id);
    expect((await pay(slow, reference, 420)).status).toBe(409);
    expect((await sell(slow, reference, 3, id)).status).toBe(409);

    const refund = await slow.write.post(`/payments/${id}/refund`, {});
    expect(refund.status).toBe(202);
    expect(refund.body.data).toMatchObject({ state: 'refunded', refunded: 4200, refusal: { reversed: true } });
    expect((await ofReference(reference))[0]?.refunded).toBe(4200);
    expect((await slow.write.get(`/payments?store=${slow.store}&unrecorded=true`)).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
  });
});

describe('POST /terminals', () => {
  it('refuses a certificate that does not parse, saying what to do', async () => {
    const { host, port, poiId, keyIdentifier, keyVersion, passphrase } = sim.ready;
    const body = { store: quick.store, name: 'T', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase };
    const cut = await quick.write.post('/terminals', { ...body, certificate: '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n' });
    expect(cut.status).toBe(400);
    expect(cut.body.message).toContain('not a readable X.509 certificate');
    const unfinished = await quick.write.post('/terminals', { ...body, certificate: `${sim.ready.certificate.slice(0, 200)}` });
    expect(unfinished.status).toBe(400);
    expect(unfinished.body.message).toContain('paste the whole file');
  });
});
