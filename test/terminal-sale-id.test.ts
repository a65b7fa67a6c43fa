import { cpSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange } from '../main/payments/nexo/nexo-transport.js';
import { api } from './support/api.js';
import { makeDataDir, startTestServer, type TestServer, type TestServerOptions } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

let sim: TerminalSimulator;
const servers: TestServer[] = [];
const folders: string[] = [];

beforeAll(async () => {
  sim = await startTerminalSimulator();
});
afterAll(async () => {
  for (const server of servers) await server.destroy();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  await sim?.stop();
});

/** A store PC on a data folder of its own, with the simulator as its store's terminal. */
async function storePc(options: TestServerOptions = {}) {
  const server = await startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK, ...options });
  servers.push(server);
  const key = server.createOrg().writeKey;
  const write = api(server.url, key);
  const store = (await write.post('/stores', { name: 'Laden' })).body.id as string;
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await write.post('/terminals', { store, name: 'Geteilt', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);
  return { server, key, write, store };
}

/** The SaleID the simulator received with the payment of this sale, as its status answer repeats it. */
async function saleIdReceived(reference: string): Promise<string> {
  const taken = (await sim.transactions()).find((t) => t.reference === reference);
  expect(taken).toBeDefined();
  const header = { ProtocolVersion: '3.0', MessageClass: 'Service', MessageCategory: 'TransactionStatus', MessageType: 'Request', SaleID: 'TestReader', ServiceID: 'readsale01', POIID: sim.ready.poiId };
  const answer = await exchange(sim.ready, { header, body: 'TransactionStatusRequest', content: { MessageReference: { MessageCategory: 'Payment', ServiceID: taken!.serviceId } }, timeoutMs: 10_000 });
  return String(answer?.TransactionStatusResponse?.RepeatedMessageResponse?.MessageHeader?.SaleID);
}

const stateOf = async (write: ReturnType<typeof api>, id: string) => (await write.get(`/payments/${id}`)).body.data.state as string;

describe('the SaleID a store PC sends its terminal', () => {
  it('differs between two data folders sharing one terminal, and is not the old shared "StoreServer"', async () => {
    const first = await storePc();
    const second = await storePc();
    const sent: string[] = [];
    for (const [n, pc] of [first, second].entries()) {
      const reference = `pc${n}-${Date.now()}`;
      await sim.next({ outcome: 'approve' });
      const id = (await pc.write.post('/payments', { store: pc.store, amount: 250, currency: 'CHF', reference })).body.data.id;
      await expect.poll(() => stateOf(pc.write, id)).toBe('approved');
      sent.push(await saleIdReceived(reference));
    }
    expect(sent[0]).toMatch(/^StoreServer-[0-9a-f]{10}$/);
    expect(sent[1]).toMatch(/^StoreServer-[0-9a-f]{10}$/);
    expect(sent[0]).not.toBe(sent[1]);
  });

  it('of a payment whose answer was lost is the one its status is asked under, also once a copied data folder has a new one', async () => {
    // Followed up only at the next start: the question is which SaleID that start asks with.
    const never = { firstMs: 600_000, maxMs: 600_000 };
    const pc = await storePc({ paymentPace: never });
    const reference = `lost-${Date.now()}`;
    await sim.next({ outcome: 'lose-answer', delayMs: 300 });
    const id = (await pc.write.post('/payments', { store: pc.store, amount: 990, currency: 'CHF', reference })).body.data.id;
    await expect.poll(() => stateOf(pc.write, id)).toBe('unknown');
    // The terminal approves after its delay; only then does the question at the next start have an answer.
    await expect.poll(async () => (await sim.transactions()).find((t) => t.reference === reference)?.state).toBe('approved');
    const sentWith = await saleIdReceived(reference);
    await pc.server.stop();

    const copy = makeDataDir();
    folders.push(copy);
    cpSync(pc.server.dataDir, copy, { recursive: true });
    const moved = await startTestServer({ dataDir: copy, terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: never });
    servers.push(moved);
    const write = api(moved.url, pc.key);
    await expect.poll(() => stateOf(write, id)).toBe('approved');

    const next = `after-copy-${Date.now()}`;
    await sim.next({ outcome: 'approve' });
    const second = (await write.post('/payments', { store: pc.store, amount: 100, currency: 'CHF', reference: next })).body.data.id;
    await expect.poll(() => stateOf(write, second)).toBe('approved');
    const copySends = await saleIdReceived(next);
    expect(copySends).toMatch(/^StoreServer-[0-9a-f]{10}$/);
    expect(copySends).not.toBe(sentWith);
  });
});
