import { afterAll, beforeAll, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

let sim: TerminalSimulator;
let server: TestServer;
const unhandled: unknown[] = [];
const collect = (reason: unknown) => void unhandled.push(reason);

beforeAll(async () => {
  sim = await startTerminalSimulator();
  process.on('unhandledRejection', collect);
});
afterAll(async () => {
  process.off('unhandledRejection', collect);
  await server?.destroy();
  await sim?.stop();
});

it('stops while a payment is out at the terminal, and the next start settles it with the approval the terminal gave meanwhile', async () => {
  server = await startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: { firstMs: 100, maxMs: 400 } });
  const org = server.createOrg();
  const write = api(server.url, org.writeKey);
  const store = (await write.post('/stores', { name: 'Hofladen' })).body.id;
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  expect((await write.post('/terminals', { store, name: 'T1', protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate })).status).toBe(201);

  await sim.next({ outcome: 'approve', delayMs: 1500 });
  const started = await write.post('/payments', { store, amount: 420, currency: 'CHF', reference: 'sale-shutdown-1' });
  expect(started.status).toBe(202);
  await server.stop();
  // The terminal answers a server that is gone: nothing may be written to its closed database, nor thrown unhandled.
  await expect.poll(async () => (await sim.transactions()).find((t) => t.reference === 'sale-shutdown-1')?.state).toBe('approved');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(unhandled).toEqual([]);

  server = await server.restart({ terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: { firstMs: 100, maxMs: 400 } });
  const after = (await api(server.url, org.writeKey).get(`/payments/${started.body.data.id}`)).body.data;
  expect(after.state).toBe('approved');
});
