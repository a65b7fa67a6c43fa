import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printerNetworkPolicy } from '../main/receipts/printer-network.js';
import { api, type Api } from './support/api.js';
import { startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const NOW = '2026-11-25T09:00:00.000Z';

let server: TestServer;
let org: TestOrg;
let write: Api;
let printer: FakePrinter;
let store: string;

beforeAll(async () => {
  printer = await startFakePrinter();
  server = await startTestServer({ clock: { now: () => new Date(NOW) }, printerNetwork: TEST_PRINTER_NETWORK });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  store = (await write.post('/stores', { name: 'Hofladen Müller' })).body.id;
});
afterAll(async () => {
  await printer.close();
  await server.destroy();
});

const register = (body: Record<string, unknown>, client = write) => client.post('/printers', body);

describe('POST /printers', () => {
  it('registers a printer of a store, and GET /printers lists it, not yet reached', async () => {
    const res = await register({ store, name: ' Kasse 1 ', host: printer.host, port: printer.port });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ success: true, id: expect.any(String) });
    const list = await write.get('/printers');
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual({
      id: res.body.id,
      store,
      name: 'Kasse 1',
      host: '127.0.0.1',
      port: printer.port,
      state: 'unknown',
      message: null,
      lastAttemptAt: null,
      lastPrintedAt: null,
      orderId: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    const row = server.sqlite().prepare('SELECT org_id, store, name, host, port, deleted FROM printers WHERE id = ?').get(res.body.id);
    expect(row).toEqual({ org_id: org.id, store, name: 'Kasse 1', host: '127.0.0.1', port: printer.port, deleted: 0 });
    expect(printer.connections()).toBe(0);
  });

  it('refuses a read key, a missing field, an unknown store, and a body naming more than a printer', async () => {
    expect((await register({ store, name: 'X', host: printer.host, port: printer.port }, api(server.url, org.readKey))).status).toBe(403);
    const missing = await register({ store, host: printer.host });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain('name');
    const unknown = await register({ store: 'no-such-store', name: 'X', host: printer.host, port: printer.port });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('store: no store "no-such-store" in this organization');
    const badHost = await register({ store, name: 'X', host: 'http://evil', port: 9100 });
    expect(badHost.status).toBe(400);
    expect(JSON.stringify(badHost.body)).toContain('must be a host name or an IP address');
  });
});

describe('GET /printers', () => {
  it("needs a key and lists only the key's organization's printers", async () => {
    expect((await api(server.url).get('/printers')).status).toBe(403);
    const other = server.createOrg();
    const otherWrite = api(server.url, other.writeKey);
    const otherStore = (await otherWrite.post('/stores', { name: 'Laden B' })).body.id;
    const theirs = (await register({ store: otherStore, name: 'B-Kasse', host: printer.host, port: printer.port }, otherWrite)).body.id;
    const mine = (await write.get('/printers')).body.data as { id: string; store: string }[];
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((p) => p.store === store)).toBe(true);
    expect((await api(server.url, other.readKey).get('/printers')).body.data.map((p: { id: string }) => p.id)).toEqual([theirs]);
    // Another organization's printer is not there to check, print on or remove.
    expect((await write.post(`/printers/${theirs}/check`)).status).toBe(404);
    expect((await write.delete(`/printers/${theirs}`)).status).toBe(404);
  });
});

describe('DELETE /printers/{printerId}', () => {
  it('removes a printer: no longer listed, checked or printed on; the row stays marked', async () => {
    const id = (await register({ store, name: 'Alt', host: printer.host, port: printer.port })).body.id;
    expect((await api(server.url, org.readKey).delete(`/printers/${id}`)).status).toBe(403);
    const res = await write.delete(`/printers/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await write.get('/printers')).body.data.map((p: { id: string }) => p.id)).not.toContain(id);
    expect((await write.post(`/printers/${id}/check`)).status).toBe(404);
    expect((await write.delete(`/printers/${id}`)).status).toBe(404);
    expect(server.sqlite().prepare('SELECT deleted FROM printers WHERE id = ?').pluck().get(id)).toBe(1);
  });
});

describe('print requests name a registered printer, never an address', () => {
  it('refuses a host and port in a check, a receipt or a report, in the standard shapes, connecting nowhere', async () => {
    const before = printer.connections();
    const address = { host: printer.host, port: printer.port };
    const old = await write.post('/printers/check', { printer: address });
    expect(old.status).toBe(404);
    const receipt = await write.post('/receipts/any-order/print', { printer: address });
    expect(receipt.status).toBe(400);
    const report = await write.post('/reports/daily/print', { store, date: '2026-11-25', printer: address });
    expect(report.status).toBe(400);
    const extra = await write.post('/receipts/any-order/print', { printer: 'x', host: printer.host, port: printer.port });
    expect(extra.status).toBe(400);
    expect(JSON.stringify(extra.body)).toContain('is not a writable field');
    expect(printer.connections()).toBe(before);
  });
});

describe('address and port rules (default settings: private LAN, ports 9100-9102)', () => {
  let strict: TestServer;
  let strictWrite: Api;
  let strictStore: string;
  beforeAll(async () => {
    strict = await startTestServer();
    const strictOrg = strict.createOrg();
    strictWrite = api(strict.url, strictOrg.writeKey);
    strictStore = (await strictWrite.post('/stores', { name: 'Laden' })).body.id;
  });
  afterAll(async () => {
    await strict.destroy();
  });

  it.each([
    ['127.0.0.1', 9100, 'Printer address 127.0.0.1 is a loopback address (this computer itself)'],
    ['localhost', 9100, 'localhost resolves to'],
    ['169.254.1.20', 9100, 'Printer address 169.254.1.20 is a link-local address'],
    ['8.8.8.8', 9100, 'Printer address 8.8.8.8 is not on a private network (a public or reserved address)'],
    ['[fe80::1]', 9100, 'is a link-local address'],
    ['224.0.0.251', 9100, 'is a multicast address'],
    ['192.168.1.50', 22, 'Port 22 is not a printer port this server prints to (9100-9102)'],
  ])('refuses %s port %i with 400 naming the rule', async (host, port, words) => {
    const res = await register({ store: strictStore, name: 'Drucker', host, port }, strictWrite);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining(words) });
    expect((await strictWrite.get('/printers')).body.data).toEqual([]);
  });

  it('registers a printer on the private LAN on a printer port', async () => {
    const res = await register({ store: strictStore, name: 'Kasse', host: '192.168.1.50' }, strictWrite);
    expect(res.status).toBe(201);
    expect((await strictWrite.get('/printers')).body.data[0]).toMatchObject({ host: '192.168.1.50', port: 9100, state: 'unknown' });
  });

  it('checks the address again when connecting: a printer registered under wider settings is refused before any connection', async () => {
    const id = (await register({ store, name: 'Loopback', host: printer.host, port: printer.port })).body.id;
    const before = printer.connections();
    const restarted = await server.restart({ printerNetwork: printerNetworkPolicy({ PRINTER_PORTS: '1024-65535' }) });
    try {
      const res = await api(restarted.url, org.writeKey).post(`/printers/${id}/check`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('Printer address 127.0.0.1 is a loopback address (this computer itself)');
      expect(printer.connections()).toBe(before);
    } finally {
      server = await restarted.restart({ printerNetwork: TEST_PRINTER_NETWORK });
      write = api(server.url, org.writeKey);
    }
  });
});

describe("this PC's own addresses", () => {
  /** An address of one of this PC's network interfaces other than loopback, as another device on the LAN reaches it. */
  const ownAddress = Object.values(networkInterfaces())
    .flatMap((list) => list ?? [])
    .find((entry) => !entry.internal && !entry.address.startsWith('fe80'))!.address;
  let own: TestServer;
  let ownWrite: Api;
  let ownStore: string;
  beforeAll(async () => {
    // Loopback and this PC's LAN address are both allowed explicitly: only the rule of the PC's own addresses can refuse the latter.
    const cidr = `${ownAddress}/${ownAddress.includes(':') ? 128 : 32}`;
    own = await startTestServer({ printerNetwork: printerNetworkPolicy({ PRINTER_ALLOW_ADDRESSES: `loopback,${cidr}`, PRINTER_PORTS: '1024-65535' }) });
    const ownOrg = own.createOrg();
    ownWrite = api(own.url, ownOrg.writeKey);
    ownStore = (await ownWrite.post('/stores', { name: 'Laden' })).body.id;
  });
  afterAll(async () => {
    await own.destroy();
  });

  it("refuses a printer at an address of one of this PC's interfaces, even one the setting allows", async () => {
    const host = ownAddress.includes(':') ? `[${ownAddress}]` : ownAddress;
    const res = await register({ store: ownStore, name: 'Server', host, port: 9100 }, ownWrite);
    expect(res.body).toMatchObject({ statusCode: 400, message: expect.stringContaining("is one of this PC's own addresses") });
    expect((await ownWrite.get('/printers')).body.data).toEqual([]);
  });

  it('keeps loopback for a printer emulator when the setting names loopback', async () => {
    const res = await register({ store: ownStore, name: 'Emulator', host: '127.0.0.1', port: 9100 }, ownWrite);
    expect(res.status).toBe(201);
  });
});

describe('kiosk and scale keys', () => {
  it("let a kiosk key see, check and print on its own store's printers only, and a scale key nothing", async () => {
    const otherStore = (await write.post('/stores', { name: 'Filiale' })).body.id;
    const own = (await register({ store, name: 'Kiosk-Drucker', host: printer.host, port: printer.port })).body.id;
    const foreign = (await register({ store: otherStore, name: 'Filial-Drucker', host: printer.host, port: printer.port })).body.id;
    const kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store })).body.key);
    const scale = api(server.url, (await write.post('/keys', { kind: 'scale' })).body.key);

    const seen = (await kiosk.get('/printers')).body.data as { id: string; store: string }[];
    expect(seen.map((p) => p.id)).toContain(own);
    expect(seen.every((p) => p.store === store)).toBe(true);
    expect((await kiosk.post(`/printers/${own}/check`)).body.data).toMatchObject({ id: own, state: 'ready' });
    expect((await kiosk.post(`/printers/${foreign}/check`)).status).toBe(404);

    const product = (await write.post('/products', { name: 'Brot', price: 450, taxCategory: '2.6' })).body.id;
    const order = (await write.post('/orders', { store, paymentMethod: 'cash', products: [{ productId: product, quantity: 1 }] })).body.id;
    const printed = await kiosk.post(`/receipts/${order}/print`, { printer: own });
    expect(printed.body.data).toMatchObject({ printed: true, printer: own });
    const elsewhere = await kiosk.post(`/receipts/${order}/print`, { printer: foreign });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.message).toContain('prints on that store\'s printers only');

    const before = printer.connections();
    const chosen = await kiosk.post(`/receipts/${order}/print`, { printer: { host: '127.0.0.1', port: 22 } });
    expect(chosen.status).toBe(400);
    expect((await kiosk.post('/printers', { store, name: 'Mein', host: '127.0.0.1', port: printer.port })).status).toBe(403);
    expect((await kiosk.delete(`/printers/${own}`)).status).toBe(403);
    expect((await kiosk.post('/reports/daily/print', { store, date: '2026-11-25', printer: own })).status).toBe(403);
    expect(printer.connections()).toBe(before);

    expect((await scale.get('/printers')).status).toBe(403);
    expect((await scale.post(`/printers/${own}/check`)).status).toBe(403);
  });
});
