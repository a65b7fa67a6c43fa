import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { FAST_SYNC, configureSync, waitForSync } from './support/sync.js';

/**
 * An upstream that is down: it answers 503, but only when the test lets a
 * call go, so that the test can read `GET /sync` while a retry is under way.
 */
function heldUpstream() {
  const held: ServerResponse[] = [];
  const arrivals: (() => void)[] = [];
  const server: Server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    held.push(res);
    arrivals.splice(0).forEach((arrived) => arrived());
  });
  return {
    server,
    /** Resolves once a call waits on the upstream. */
    async nextCall(): Promise<ServerResponse> {
      while (held.length === 0) await new Promise<void>((resolve) => arrivals.push(resolve));
      return held.shift()!;
    },
  };
}

let store: TestServer;
let org: TestOrg;
let write: Api;
const upstream = heldUpstream();

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.server.listen(0, '127.0.0.1', resolve));
  store = await startTestServer({ sync: FAST_SYNC });
  org = store.createOrg();
  write = api(store.url, org.writeKey);
  configureSync(store, org.id, { url: `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}/api/v1`, key: 'upstream-key' });
});
afterAll(async () => {
  upstream.server.closeAllConnections();
  upstream.server.close();
  await store.destroy();
});

const unavailable = (res: ServerResponse) => {
  res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0' });
  res.end(JSON.stringify({ success: false, message: 'Service unavailable' }));
};

describe('GET /sync while the upstream is down', () => {
  it('stays offline during a retry, instead of flickering to pushing', async () => {
    expect((await write.post('/products', { name: 'Brot', price: 350, taxCategory: '2.6' })).status).toBe(200);
    // Calls before the first failure may show `pushing`: the upstream had not been found down yet.
    unavailable(await upstream.nextCall());
    await waitForSync(write, (status) => status.state === 'offline');
    for (let retry = 0; retry < 3; retry++) {
      const call = await upstream.nextCall();
      const status = (await write.get('/sync')).body.data;
      expect(status).toMatchObject({ state: 'offline', pending: 1 });
      unavailable(call);
    }
  });
});

describe('a round cut short by the shutdown', () => {
  it('says so in the log, with the reason', async () => {
    const lines: { msg: string; why?: string; waitingFor?: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    const held = heldUpstream();
    await new Promise<void>((resolve) => held.server.listen(0, '127.0.0.1', resolve));
    const server = await startTestServer({ sync: FAST_SYNC, logger });
    try {
      const owner = server.createOrg();
      configureSync(server, owner.id, { url: `http://127.0.0.1:${(held.server.address() as AddressInfo).port}/api/v1`, key: 'upstream-key' });
      expect((await api(server.url, owner.writeKey).post('/products', { name: 'Brot', price: 350, taxCategory: '2.6' })).status).toBe(200);
      // A call of the round waits on the upstream when the server is asked to stop.
      await held.nextCall();
      await server.stop();
      expect(lines).toContainEqual(expect.objectContaining({ msg: 'sync round stopped before its end', why: 'the server is shutting down' }));
    } finally {
      held.server.closeAllConnections();
      held.server.close();
      await server.destroy();
    }
  });
});
