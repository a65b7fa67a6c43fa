import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { closedPort, startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const NOW = '2026-11-24T13:03:00.000Z';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let server: TestServer;
let org: TestOrg;
let write: Api;
let printer: FakePrinter;
let store: string;
let orderId: string;
let printerId: string;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(NOW) }, printerNetwork: TEST_PRINTER_NETWORK });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  printer = await startFakePrinter();
  store = (
    await write.post('/stores', { name: 'Hofladen Müller', address: 'Dorfstrasse 1', zipCode: '3000', city: 'Bern', vatNumber: 'CHE-123.456.789 MWST', languageMain: 'de' })
  ).body.id;
  const product = async (body: Record<string, unknown>) => (await write.post('/products', body)).body.id as string;
  const apples = await product({ name: 'Äpfel Gala', price: 350, taxCategory: '2.6' });
  const juice = await product({ name: 'Apfelsaft 1 l', price: 450, salePrice: 395, salePriceDateFrom: '2026-11-01T00:00:00.000Z', taxCategory: '8.1', depositProduct: 50 });
  const bag = await product({ name: 'Tragtasche', price: 30, taxCategory: '8.1' });
  const res = await write.post('/orders', {
    store,
    orderId: 'till-2026-11-24-0042',
    paymentMethod: 'cash',
    products: [
      { productId: apples, quantity: 2 },
      { productId: juice, quantity: 1 },
      { productId: bag, quantity: 1 },
    ],
  });
  orderId = res.body.id;
  printerId = (await write.post('/printers', { store, name: 'Kasse 1', host: printer.host, port: printer.port })).body.id;
});
afterAll(async () => {
  await printer.close();
  await server.destroy();
});

const print = (body: Record<string, unknown>, id = orderId, client = write) => client.post(`/receipts/${id}/print`, body);

describe('POST /receipts/{orderId}/print', () => {
  it('refuses a read key, a body without a printer and an unknown order in the standard shapes', async () => {
    const read = await print({ printer: printerId }, orderId, api(server.url, org.readKey));
    expect(read.status).toBe(403);
    const noPrinter = await print({});
    expect(noPrinter.status).toBe(400);
    expect(JSON.stringify(noPrinter.body)).toContain('printer');
    const unregistered = await print({ printer: 'no-such-printer' });
    expect(unregistered.status).toBe(400);
    expect(unregistered.body.message).toBe('printer: no printer "no-such-printer" is registered in this organization (GET /printers lists them)');
    const address = await print({ printer: { host: printer.host, port: printer.port } });
    expect(address.status).toBe(400);
    const badUrl = await print({ printer: printerId, receiptUrl: 'javascript:alert(1)' });
    expect(badUrl.status).toBe(400);
    const unknown = await print({ printer: printerId }, 'no-such-order');
    expect(unknown.status).toBe(404);
    expect(printer.jobs).toEqual([]);
  });

  it('prints the store, its VAT number, the date, every line, the VAT per rate and the total', async () => {
    const res = await print({ printer: printerId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { printed: true, printer: printerId, name: 'Kasse 1', state: 'ready', message: null } });
    const lines = (printer.jobs.at(-1) as { lines: string[] }).lines;
    const text = lines.join('\n');
    expect(lines).toContain('Hofladen Müller');
    expect(lines).toContain('Dorfstrasse 1');
    expect(lines).toContain('3000 Bern');
    expect(lines).toContain('MWST-Nr. CHE-123.456.789 MWST');
    // 13:03 UTC is 14:03 in Zurich.
    expect(text).toMatch(/Quittung Nr\. \d{3} \d{3} 24\.11\.2026, 14:03/);
    expect(lines).toContain('Äpfel Gala 7.00');
    expect(lines).toContain('2 × 3.50');
    expect(lines).toContain('Apfelsaft 1 l 3.95');
    expect(lines).toContain('1 × 3.95 Aktion, statt 4.50');
    expect(lines).toContain('Pfand 0.50');
    expect(lines).toContain('Tragtasche 0.30');
    expect(lines).toContain('MWST Netto MWST Brutto');
    // 8.1 %: 3.95 + 0.30 = 4.25 gross, VAT 0.30 + 0.02; 2.6 %: 7.00 gross, VAT 0.18.
    expect(lines).toContain('8.1% 3.93 0.32 4.25');
    expect(lines).toContain('2.6% 6.82 0.18 7.00');
    expect(lines).toContain('Total CHF 11.75');
    expect(lines).toContain('Bezahlt mit Bar');
    expect(lines).toContain('Beleg till-2026-11-24-0042');
  });

  it('prints in the language asked for, with the e-receipt line under its QR code', async () => {
    const res = await print({ printer: printerId, language: 'fr', receiptUrl: 'https://shop.example/r/{orderId}' });
    expect(res.body.data.printed).toBe(true);
    const job = printer.jobs.at(-1) as { bytes: Buffer; lines: string[] };
    expect(job.lines).toContain('No TVA CHE-123.456.789 MWST');
    expect(job.lines.join('\n')).toMatch(/Quittance No \d{3} \d{3} 24 nov\. 2026, 14:03/);
    expect(job.lines).toContain('Quittance en ligne');
    // The QR code is a raster image: GS 8 L.
    expect(job.bytes.includes(Buffer.from([0x1d, 0x38, 0x4c]))).toBe(true);
  });

  it('sends nothing to a printer that reports its paper end, and the status page shows it', async () => {
    printer.setPaperOut(true);
    const before = printer.jobs.length;
    const res = await print({ printer: printerId });
    printer.setPaperOut(false);
    expect(res.body).toEqual({ data: { printed: false, printer: printerId, name: 'Kasse 1', state: 'paperOut', message: `The printer at 127.0.0.1:${printer.port} is out of paper.` } });
    expect(printer.jobs.length).toBe(before);
    const status = await write.get('/printers');
    expect(status.body.data).toContainEqual({
      id: printerId,
      store,
      name: 'Kasse 1',
      host: '127.0.0.1',
      port: printer.port,
      createdAt: NOW,
      updatedAt: NOW,
      state: 'paperOut',
      message: `The printer at 127.0.0.1:${printer.port} is out of paper.`,
      lastAttemptAt: NOW,
      lastPrintedAt: NOW,
      orderId,
    });
  });

  it('answers that a switched-off printer did not print, and the status page names the fault', async () => {
    const port = await closedPort();
    const off = (await write.post('/printers', { store, name: 'Kasse 2', host: '127.0.0.1', port })).body.id;
    const res = await print({ printer: off });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      printed: false,
      printer: off,
      name: 'Kasse 2',
      state: 'offline',
      message: `The printer at 127.0.0.1:${port} refused the connection: is it switched on, and is the port right?`,
    });
    const status = await write.get('/printers');
    expect(status.status).toBe(200);
    expect(status.body.data.find((p: { id: string }) => p.id === off)).toMatchObject({ id: off, port, state: 'offline', message: expect.stringContaining('refused'), lastAttemptAt: expect.stringMatching(ISO), lastPrintedAt: null, orderId });
    const order = await write.get(`/orders/${orderId}`);
    expect(order.status).toBe(200);
  });
});

describe('POST /printers/{printerId}/check', () => {
  const check = (id: string, client = write) => client.post(`/printers/${id}/check`);

  it('asks the printer for its paper status, prints nothing, and lists it with that state', async () => {
    const jobs = printer.jobs.length;
    printer.setPaperOut(false);
    const res = await check(printerId);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: printerId, name: 'Kasse 1', state: 'ready', message: null, lastAttemptAt: NOW });
    expect(printer.jobs.length).toBe(jobs);
    const listed = (await write.get('/printers')).body.data.find((p: { id: string }) => p.id === printerId);
    expect(listed).toEqual(res.body.data);
  });

  it('finds a printer out of paper or switched off before the first sale', async () => {
    printer.setPaperOut(true);
    const empty = await check(printerId);
    printer.setPaperOut(false);
    expect(empty.body.data).toMatchObject({ state: 'paperOut', message: `The printer at 127.0.0.1:${printer.port} is out of paper.` });
    const port = await closedPort();
    const off = (await write.post('/printers', { store, name: 'Lager', host: '127.0.0.1', port })).body.id;
    const res = await check(off);
    expect(res.body.data).toEqual({
      id: off,
      store,
      name: 'Lager',
      host: '127.0.0.1',
      port,
      state: 'offline',
      message: expect.stringContaining('refused the connection'),
      lastAttemptAt: NOW,
      lastPrintedAt: null,
      orderId: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
  });

  it('refuses a read key and answers 404 for a printer that is not registered', async () => {
    expect((await check(printerId, api(server.url, org.readKey))).status).toBe(403);
    const unknown = await check('no-such-printer');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Printer "no-such-printer" not found');
  });
});

describe("a kiosk key's e-receipt QR code", () => {
  it("is only the store's own e-receipt address: another site is refused with 400 and nothing prints", async () => {
    const kiosk = api(server.url, (await write.post('/keys', { kind: 'kiosk', store })).body.key);
    const before = printer.jobs.length;
    const phishing = await print({ printer: printerId, receiptUrl: 'https://evil.example/r/{orderId}' }, orderId, kiosk);
    expect(phishing.status).toBe(400);
    expect(phishing.body.message).toBe(
      `receiptUrl: a kiosk key prints only its store's own e-receipt address; store "${store}" has no e-receipt address, not "https://evil.example/r/{orderId}". ` +
        'Staff set it with POST /stores/{storeId} {"receiptUrl": …}, or leave receiptUrl out to print without a QR code.',
    );
    expect((await write.post(`/stores/${store}`, { receiptUrl: 'https://shop.example/r/{orderId}' })).status).toBe(200);
    expect((await print({ printer: printerId, receiptUrl: 'https://evil.example/r/{orderId}' }, orderId, kiosk)).status).toBe(400);
    expect(printer.jobs.length).toBe(before);

    const own = await print({ printer: printerId, receiptUrl: 'https://shop.example/r/{orderId}' }, orderId, kiosk);
    expect(own.body.data.printed).toBe(true);
    expect((printer.jobs.at(-1) as { lines: string[] }).lines).toContain('Quittung online');
    expect((await write.get(`/stores/${store}`)).body.data.receiptUrl).toBe('https://shop.example/r/{orderId}');
  });
});
