import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { PeerCertificate } from 'node:tls';
import { generate } from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTerminalIdentity } from '../main/payments/nexo/terminal-certificate.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startTerminalSimulator, TEST_TERMINAL_NETWORK, type TerminalSimulator } from './support/terminal-simulator.js';

/** A TLS server whose certificate names its IP address, as a web server's would, and no terminal: it counts what reaches it. */
async function startIpNamedServer(): Promise<{ ca: string; port: number; requests: () => number; close: () => Promise<void> }> {
  const ca = await generate([{ name: 'commonName', value: 'Some CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ca: { key: ca.private, cert: ca.cert },
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  let requests = 0;
  const server: Server = createServer({ cert: leaf.cert, key: leaf.private }, (_req, res) => {
    requests++;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ca: ca.cert,
    port: (server.address() as AddressInfo).port,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let sim: TerminalSimulator;
let otherSim: TerminalSimulator;
let ipNamed: Awaited<ReturnType<typeof startIpNamedServer>>;
let server: TestServer;
let write: Api;
let store: string;

beforeAll(async () => {
  // Each kept as it starts, so that afterAll stops those that started when another did not.
  await Promise.all([
    startTerminalSimulator(['--poi-id', 'S1E2L-324688179']).then((started) => (sim = started)),
    startTerminalSimulator().then((started) => (otherSim = started)),
    startIpNamedServer().then((started) => (ipNamed = started)),
  ]);
  server = await startTestServer({ terminalNetwork: TEST_TERMINAL_NETWORK, paymentPace: { firstMs: 100, maxMs: 400 } });
  write = api(server.url, server.createOrg().writeKey);
  store = (await write.post('/stores', { name: 'Hofladen Müller' })).body.id;
});
afterAll(async () => {
  await server?.destroy();
  await Promise.all([sim?.stop(), otherSim?.stop(), ipNamed?.close()]);
});

/** Registers the simulator as a terminal of the store, with `change` applied to what it printed. */
async function register(name: string, change: Record<string, unknown> = {}): Promise<string> {
  const { host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate } = sim.ready;
  const res = await write.post('/terminals', { store, name, protocol: 'nexo-local', host, port, poiId, keyIdentifier, keyVersion, passphrase, certificate, ...change });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function payAt(terminal: string, reference: string): Promise<any> {
  const started = await write.post('/payments', { store, terminal, amount: 420, currency: 'CHF', reference });
  expect(started.status).toBe(202);
  let payment: any;
  await expect
    .poll(async () => {
      payment = (await write.get(`/payments/${started.body.data.id}`)).body.data;
      return payment.state;
    })
    .not.toMatch(/^(pending|unknown)$/);
  return payment;
}

const chargedAt = async (at: TerminalSimulator, reference: string) => (await at.transactions()).filter((t) => t.reference === reference);

describe("a terminal's TLS certificate", () => {
  it('is accepted when the registered CA signed it for the registered POIID, though it names no IP address', async () => {
    expect(sim.ready.poiId).toBe('S1E2L-324688179');
    const terminal = await register('Richtig');
    const reference = `right-${Date.now()}`;
    expect(await payAt(terminal, reference)).toMatchObject({ state: 'approved', amount: 420 });
    expect(await chargedAt(sim, reference)).toMatchObject([{ amount: 420, state: 'approved' }]);
  });

  it("is refused when it names another terminal's POIID: cancelled, nothing charged, the message names both", async () => {
    const terminal = await register('Falsche POIID', { poiId: 'S1E2L-999999999' });
    const reference = `other-poi-${Date.now()}`;
    const payment = await payAt(terminal, reference);
    expect(payment).toMatchObject({ state: 'cancelled', brand: null });
    expect(payment.message).toContain(`the terminal at 127.0.0.1:${sim.ready.port} was not trusted: its TLS certificate is for "S1E2L-324688179.test.terminal.adyen.com", not for the registered POIID "S1E2L-999999999"`);
    expect(payment.message).toContain('nothing was charged');
    expect(await chargedAt(sim, reference)).toEqual([]);
    const check = await write.post(`/terminals/${terminal}/check`, {});
    expect(check.body.data).toMatchObject({ reachable: false });
    expect(check.body.data.message).toContain('not for the registered POIID "S1E2L-999999999"');
  });

  it('is refused when another CA than the registered one signed it', async () => {
    const terminal = await register('Fremde CA', { certificate: otherSim.ready.certificate });
    const reference = `other-ca-${Date.now()}`;
    const payment = await payAt(terminal, reference);
    expect(payment.state).toBe('cancelled');
    expect(payment.message).toMatch(/its TLS certificate is not signed by the CA registered with this terminal \([A-Z_]+\): register the terminal with the CA certificate of its environment/);
    expect(await chargedAt(sim, reference)).toEqual([]);
  });

  it('is refused when it names an IP address, even the right one, signed by the registered CA', async () => {
    const terminal = await register('Nur IP', { host: '127.0.0.1', port: ipNamed.port, certificate: ipNamed.ca });
    const payment = await payAt(terminal, `ip-only-${Date.now()}`);
    expect(payment.state).toBe('cancelled');
    expect(payment.message).toContain('its TLS certificate is for "127.0.0.1", not for the registered POIID "S1E2L-324688179"');
    expect(ipNamed.requests()).toBe(0);
  });
});

describe('the name check alone', () => {
  const check = checkTerminalIdentity('S1E2L-324688179');
  const cases: [string, string | string[] | undefined, boolean][] = [
    ['test environment', 'S1E2L-324688179.test.terminal.adyen.com', true],
    ['live environment', 'S1E2L-324688179.live.terminal.adyen.com', true],
    ['letter case of a host name', 'S1E2L-324688179.TEST.terminal.adyen.com', true],
    ["another terminal's", 'S1E2L-324688170.test.terminal.adyen.com', false],
    ["Adyen's legacy name, which names no terminal", 'legacy-terminal-certificate.test.terminal.adyen.com', false],
    ['another domain', 'S1E2L-324688179.test.terminal.example.com', false],
    ['the POIID alone', 'S1E2L-324688179', false],
    ['an IP address', '192.168.1.60', false],
    ['two names', ['S1E2L-324688179.test.terminal.adyen.com', 'other'], false],
    ['no name', undefined, false],
  ];
  it.each(cases)('%s', (_what, cn, accepted) => {
    const cert = { subject: cn === undefined ? {} : { CN: cn } } as unknown as PeerCertificate;
    expect(check('192.168.1.60', cert) === undefined).toBe(accepted);
  });
});
