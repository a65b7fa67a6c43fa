import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { closedPort, startFakePrinter, type FakePrinter } from './support/fake-printer.js';
import { TEST_PRINTER_NETWORK } from './support/printers.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

const NOW = '2026-11-24T18:30:00.000Z';
const DAY = '2026-11-24';

let server: TestServer;
let org: TestOrg;
let write: Api;
let printer: FakePrinter;
let store: string;
let printerId: string;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(NOW) }, printerNetwork: TEST_PRINTER_NETWORK });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  printer = await startFakePrinter();
  store = (await write.post('/stores', { name: 'Hofladen Müller', languageMain: 'de' })).body.id;
  const product = async (body: Record<string, unknown>) => (await write.post('/products', body)).body.id as string;
  const apples = await product({ name: 'Äpfel Gala', price: 350, taxCategory: '2.6' });
  const juice = await product({ name: 'Apfelsaft 1 l', price: 450, salePrice: 395, salePriceDateFrom: '2026-11-01T00:00:00.000Z', taxCategory: '8.1', depositProduct: 50 });
  const sell = async (orderDate: string, body: Record<string, unknown>) => (await write.post('/orders', { store, orderDate, ...body })).body.id as string;
  // 07:05 and 17:45 in Zurich; the sale at 23:30 UTC belongs to the next local day.
  await sell('2026-11-24T06:05:00.000Z', { paymentMethod: 'cash', products: [{ productId: apples, quantity: 2 }] });
  await sell('2026-11-24T16:45:00.000Z', { paymentMethod: 'card', paymentBrand: 'TWINT', products: [{ productId: juice, quantity: 2 }] });
  await sell('2026-11-24T23:30:00.000Z', { paymentMethod: 'cash', products: [{ productId: apples, quantity: 1 }] });
  const deleted = await sell('2026-11-24T10:00:00.000Z', { paymentMethod: 'cash', products: [{ productId: apples, quantity: 1 }] });
  await write.post(`/orders/${deleted}`, { deleted: true });
  printerId = (await write.post('/printers', { store, name: 'Kasse 1', host: printer.host, port: printer.port })).body.id;
});
afterAll(async () => {
  await printer.close();
  await server.destroy();
});

const print = (body: Record<string, unknown>, client = write) => client.post('/reports/daily/print', body);

describe('POST /reports/daily/print', () => {
  it("prints the store, the day, the totals, the payment methods and the VAT per rate as the day's report has them", async () => {
    const report = (await write.get(`/reports/daily?store=${store}&date=${DAY}`)).body.data;
    const res = await print({ store, date: DAY, printer: printerId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { printed: true, printer: printerId, name: 'Kasse 1', state: 'ready', message: null } });
    const lines = (printer.jobs.at(-1) as { lines: string[] }).lines;
    expect(lines).toContain('Tagesabschluss');
    expect(lines).toContain('Hofladen Müller');
    expect(lines).toContain('24.11.2026 (Europe/Zurich)');
    expect(report).toMatchObject({ sales: 2, total: 1590, deposits: 100 });
    expect(lines).toContain('Verkäufe 2');
    // 2 × 3.50 cash + 2 × (3.95 + 0.50 deposit) card.
    expect(lines).toContain('Total CHF 15.90');
    expect(lines).toContain('Pfand 1.00');
    expect(lines).toContain('Aktionsrabatte (1 Pos.) 1.10');
    expect(lines).toContain('Erster Verkauf 07:05');
    expect(lines).toContain('Letzter Verkauf 17:45');
    expect(lines).toContain('Bar 1 7.00');
    expect(lines).toContain('Karte (TWINT) 1 8.90');
    expect(lines).toContain('MWST Brutto Netto MWST');
    for (const v of report.byTaxRate as { taxRate: number; gross: number; net: number; tax: number }[]) {
      const amount = (cents: number) => (cents / 100).toFixed(2);
      expect(lines).toContain(`${Math.round(v.taxRate * 1000) / 10}% ${amount(v.gross)} ${amount(v.net)} ${amount(v.tax)}`);
    }
    expect(lines).toContain('2.6% 7.00 6.82 0.18');
    expect(lines).toContain('Gelöschte Belege 1 3.50');
    expect(lines).toContain('Gedruckt 24.11.2026, 19:30');
  });

  it('prints in the language asked for', async () => {
    const res = await print({ store, date: DAY, printer: printerId, language: 'fr' });
    expect(res.body.data.printed).toBe(true);
    const lines = (printer.jobs.at(-1) as { lines: string[] }).lines;
    expect(lines).toContain('Clôture journalière');
    expect(lines).toContain('Espèces 1 7,00');
    expect(lines).toContain('TVA par taux');
  });

  it('answers that a switched-off printer did not print, and the status page lists the printer with its fault', async () => {
    const port = await closedPort();
    const off = (await write.post('/printers', { store, name: 'Büro', host: '127.0.0.1', port })).body.id;
    const res = await print({ store, date: DAY, printer: off });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      printed: false,
      printer: off,
      name: 'Büro',
      state: 'offline',
      message: `The printer at 127.0.0.1:${port} refused the connection: is it switched on, and is the port right?`,
    });
    const status = await write.get('/printers');
    expect(status.body.data).toContainEqual(expect.objectContaining({ id: off, port, state: 'offline', lastPrintedAt: null, orderId: null }));
  });

  it('refuses a read key, an unknown store, a day that is none and a wrong printer in the standard shapes, and prints nothing', async () => {
    const before = printer.jobs.length;
    const read = await print({ store, date: DAY, printer: printerId }, api(server.url, org.readKey));
    expect(read.status).toBe(403);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ store: 'no-such-store', date: DAY, printer: printerId }, 'store', 'no store "no-such-store" in this organization'],
      [{ store, date: '2026-02-30', printer: printerId }, 'date', 'must be a day of the calendar'],
      [{ store, date: DAY }, 'printer', ''],
      [{ store, date: DAY, printer: 'no-such-printer' }, 'printer', 'no printer "no-such-printer" is registered'],
      [{ store, date: DAY, printer: { host: printer.host, port: printer.port } }, 'printer', ''],
      [{ store, date: DAY, printer: printerId, language: 'es' }, 'language', 'must be one of'],
    ];
    for (const [body, field, words] of cases) {
      const res = await print(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      // Schema errors and an unknown store alike, in the validation shape, as the day's report answers them.
      expect(Object.keys(res.body.error.fieldErrors), JSON.stringify(body)).toEqual([field]);
      expect(res.body.error.fieldErrors[field].join(' '), JSON.stringify(body)).toContain(words);
    }
    expect(printer.jobs.length).toBe(before);
  });
});
