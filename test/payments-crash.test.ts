import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

const UNIT = 250;
const dataDir = makeDataDir();
const TERMINALS = { TERMINAL_ALLOW_ADDRESSES: 'loopback' };
let sim: TerminalSimulator;
let port: number;
let child: ChildServer | undefined;
let kioskKey: string;
let writeKey: string;
let store: string;
let product: string;

/** The server as its own process, as `npm start` runs it; it keeps its port across restarts. */
async function startServerProcess(crashAt?: string): Promise<Api> {
  child = await startChildServer(dataDir, port, { ...TERMINALS, ...(crashAt ? { STORE_SERVER_CRASH_AT: crashAt } : {}) });
  return api(child.url, kioskKey);
}

/** Waits for the process to kill itself at its crash point. */
async function crashed(): Promise<void> {
  const current = child!.child;
  if (current.exitCode === null && current.signalCode === null) await once(current, 'exit');
  expect(current.signalCode).toBe('SIGKILL');
  child = undefined;
}

beforeAll(async () => {
  [sim, port] = await Promise.all([startTerminalSimulator(), freePort()]);
  const setup = await startTestServer({ dataDir, terminalNetwork: TEST_TERMINAL_NETWORK });
  const org = setup.createOrg();
  writeKey = org.writeKey;
  const write = api(setup.url, writeKey);
  store = (await write.post('/stores', { name: 'Hofladen' })).body.id;
  product = (await write.post('/products', { name: 'Zopf', price: UNIT, taxCategory: '2.6' })).body.id;
  kioskKey = (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk' })).body.key;
  const { host, port: simPort, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await write.post('/terminals', { store, name: 'T1', protocol: 'nexo-local', host, port: simPort, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
  await setup.stop();
});
afterAll(async () => {
  await child?.crash();
  await sim.stop();
});

/** The kiosk's journal resends its sale with the payment until the server stores it. */
const resend = (kiosk: Api, reference: string, payment: string) =>
  kiosk.post('/orders', { store, orderId: reference, products: [{ productId: product, quantity: 2 }], paymentMethod: 'card', payment });

async function settledPayment(kiosk: Api, reference: string): Promise<any> {
  let payments: any[] = [];
  // The server asks a terminal that was away after 1, 2, 4 … up to 30 s.
  await expect
    .poll(async () => {
      payments = (await kiosk.get(`/payments?reference=${reference}`)).body.data;
      return payments.map((p) => p.state);
    }, { timeout: 45_000 })
    .toEqual(['approved']);
  return payments[0];
}

async function recordedOnce(kiosk: Api, reference: string, payment: string): Promise<void> {
  const first = await resend(kiosk, reference, payment);
  expect(first.status).toBe(200);
  expect((await resend(kiosk, reference, payment)).body.id).toBe(first.body.id);
  const orders = (await api(child!.url, writeKey).get('/orders?start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z&limit=5000')).body.data as { orderId: string; paymentMethod: string; paymentState: string }[];
  expect(orders.filter((o) => o.orderId === reference).map((o) => [o.paymentMethod, o.paymentState])).toEqual([['card', 'successful']]);
  // No double charge: the terminal took one payment for the sale.
  expect((await sim.transactions()).filter((t) => t.reference === reference).map((t) => t.state)).toEqual(['approved']);
}

describe('kill -9 of the server during a card payment', () => {
  it('right after the payment went to the terminal: after the restart the payment is settled and the sale recorded once', async () => {
    const reference = 'crash-after-sent';
    await sim.next({ outcome: 'approve', delayMs: 300 });
    const kiosk = await startServerProcess('after-payment-sent');
    await kiosk.post('/payments', { store, amount: 2 * UNIT, currency: 'CHF', reference }).catch(() => undefined);
    await crashed();
    expect((await sim.transactions()).filter((t) => t.reference === reference)).toHaveLength(1);
    const again = await startServerProcess();
    const payment = await settledPayment(again, reference);
    expect(payment.receipt.customer.length).toBeGreaterThan(0);
    await recordedOnce(again, reference, payment.id);
    await child!.crash();
  });

  it('after the approval, before the order is stored: the approved payment is kept and the resent sale recorded once', async () => {
    const reference = 'crash-after-approval';
    await sim.next({ outcome: 'approve', delayMs: 300 });
    const kiosk = await startServerProcess('after-payment-approved');
    const started = await kiosk.post('/payments', { store, amount: 2 * UNIT, currency: 'CHF', reference });
    expect(started.status).toBe(202);
    await crashed();
    const again = await startServerProcess();
    const payment = await settledPayment(again, reference);
    expect(payment.id).toBe(started.body.data.id);
    await recordedOnce(again, reference, payment.id);
    await child!.crash();
  });

  it('with the terminal unreachable at the restart: the server starts, the sale stays locked, and the payment settles once the terminal is back', async () => {
    const reference = 'crash-terminal-away';
    await sim.next({ outcome: 'approve', delayMs: 300 });
    const kiosk = await startServerProcess('after-payment-sent');
    await kiosk.post('/payments', { store, amount: 2 * UNIT, currency: 'CHF', reference }).catch(() => undefined);
    await crashed();
    await sim.unreachable();
    const again = await startServerProcess();
    const [open] = (await again.get(`/payments?reference=${reference}`)).body.data as { id: string; state: string }[];
    expect(open?.state).toBe('unknown');
    const second = await again.post('/payments', { store, amount: 2 * UNIT, currency: 'CHF', reference });
    expect(second.status).toBe(409);
    await sim.reachable();
    const payment = await settledPayment(again, reference);
    expect(payment.id).toBe(open?.id);
    await recordedOnce(again, reference, payment.id);
    await child!.crash();
  }, 120_000);
});
