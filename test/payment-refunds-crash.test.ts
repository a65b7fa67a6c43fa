import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/** A power cut right after a refund went to the terminal: the refund was stored first, so the next start asks the terminal how it ended. */

const dataDir = makeDataDir();
let sim: TerminalSimulator;
let port: number;
let child: ChildServer | undefined;
let kioskKey: string;
let writeKey: string;
let store: string;
let product: string;

async function startServerProcess(crashAt?: string): Promise<{ kiosk: Api; write: Api }> {
  child = await startChildServer(dataDir, port, { TERMINAL_ALLOW_ADDRESSES: 'loopback', ...(crashAt ? { STORE_SERVER_CRASH_AT: crashAt } : {}) });
  return { kiosk: api(child.url, kioskKey), write: api(child.url, writeKey) };
}

beforeAll(async () => {
  [sim, port] = await Promise.all([startTerminalSimulator(), freePort()]);
  const setup = await startTestServer({ dataDir, terminalNetwork: TEST_TERMINAL_NETWORK });
  const org = setup.createOrg();
  writeKey = org.writeKey;
  const write = api(setup.url, writeKey);
  store = (await write.post('/stores', { name: 'Hofladen' })).body.id;
  product = (await write.post('/products', { name: 'Zopf', price: 250, taxCategory: '2.6' })).body.id;
  kioskKey = (await write.post('/keys', { kind: 'kiosk', store, name: 'Kiosk' })).body.key;
  const { host, port: simPort, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await write.post('/terminals', { store, name: 'T1', protocol: 'nexo-local', host, port: simPort, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
  await setup.stop();
});
afterAll(async () => {
  await child?.crash();
  await sim.stop();
});

describe('kill -9 of the server during a refund', () => {
  it('right after the reversal went to the terminal: after the restart the payment and its order show what the terminal gave back', async () => {
    const reference = 'crash-after-refund-sent';
    const first = await startServerProcess('after-refund-sent');
    await sim.next({ outcome: 'approve' });
    const id = (await first.kiosk.post('/payments', { store, amount: 500, currency: 'CHF', reference })).body.data.id as string;
    await expect.poll(async () => (await first.kiosk.get(`/payments/${id}`)).body.data.state).toBe('approved');
    const order = (await first.kiosk.post('/orders', { store, orderId: reference, products: [{ productId: product, quantity: 2 }], payment: id })).body.id as string;

    await sim.next({ outcome: 'approve', delayMs: 300 });
    const dying = child!.child;
    await first.write.post(`/payments/${id}/refund`, { amount: 200 }).catch(() => undefined);
    if (dying.exitCode === null && dying.signalCode === null) await once(dying, 'exit');
    expect(dying.signalCode).toBe('SIGKILL');
    child = undefined;
    await expect.poll(async () => (await sim.transactions()).find((t) => t.reference === reference)?.refunded).toBe(200);

    const again = await startServerProcess();
    expect((await again.write.get(`/payments/${id}`)).body.data).toMatchObject({ state: 'partially-refunded', refunded: 200, order });
    expect((await again.write.get(`/orders/${order}`)).body.data).toMatchObject({ paymentState: 'partially-refunded', refunded: 200 });
    // One refund at the terminal, and another is taken again.
    await sim.next({ outcome: 'approve' });
    expect((await again.write.post(`/payments/${id}/refund`, {})).body.data).toMatchObject({ state: 'refunded', refunded: 500 });
    expect((await sim.transactions()).find((t) => t.reference === reference)?.refunded).toBe(500);
    await child!.crash();
  });
});
