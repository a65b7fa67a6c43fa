import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { freePort } from './support/processes.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

let sim: TerminalSimulator;
let server: TestServer;
let write: Api;
let store: string;

beforeAll(async () => {
  sim = await startTerminalSimulator();
  server = await startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK });
  write = api(server.url, server.createOrg().writeKey);
  store = (await write.post('/stores', { name: 'Hofladen Müller' })).body.id;
});
afterAll(async () => {
  await server?.destroy();
  await sim?.stop();
});

const bodyAt = (port: number) => ({ ...sim.ready, port, store, name: 'Terminal 1', protocol: 'nexo-local' });

describe('POST /terminals, where the terminal stands', () => {
  it('refuses an address nothing can be connected to with 400 saying what to check, and registers nothing', async () => {
    const nobody = await freePort();
    const res = await write.post('/terminals', bodyAt(nobody));
    expect(res.body).toMatchObject({
      statusCode: 400,
      message: `host: nothing can be connected to at 127.0.0.1:${nobody} (ECONNREFUSED): check that the terminal is switched on and on the store network, and that this is the IP address its network settings show`,
    });
    expect((await write.get('/terminals')).body.data).toEqual([]);
  });

  it('registers a terminal that takes a connection there, and sends it nothing', async () => {
    const res = await write.post('/terminals', bodyAt(sim.ready.port));
    expect(res.status).toBe(201);
    expect((await write.get('/terminals')).body.data.map((t: { id: string }) => t.id)).toEqual([res.body.id]);
    expect(await sim.transactions()).toEqual([]);
  });
});
