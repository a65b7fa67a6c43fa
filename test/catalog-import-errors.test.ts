import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CATALOG_FILE_BYTES } from '../shared/api/catalog.js';
import { api, type Api } from './support/api.js';
import { catalogReport } from './support/catalog-report.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  await write.post('/categories', { name: 'Getränke' });
  // Two products share a barcode, as real catalogs do (a deposit crate and its bottle).
  for (const name of ['Mineral 6x1.5l', 'Mineral 1.5l']) await write.post('/products', { name, price: 100, taxCategory: '2.6', barcode: '7610000000103' });
  await write.post('/products', { name: 'Cola', price: 250, taxCategory: '2.6', barcode: '7610000000110', externalId: 'C-1' });
});
afterAll(async () => {
  await server.destroy();
});

const sendFile = (body: string, query = '') => write.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': 'text/csv' } });

/** Products and outbox entries of the organization, to prove that nothing was written. */
function written() {
  const db = server.sqlite();
  const products = db.prepare('SELECT name, price, barcode FROM products WHERE org_id = ? ORDER BY name').all(org.id);
  const outbox = (db.prepare('SELECT count(*) AS n FROM outbox WHERE org_id = ?').get(org.id) as { n: number }).n;
  return { products, outbox };
}

const HEADER = 'externalId;barcode;name;price;taxCategory;category';
/** A good line that would create a product: every bad file below also carries one, which must not be written either. */
const GOOD = ';7610000000200;Apfelsaft;2,40;2.6;Getränke';

describe('POST /catalog/import refuses bad input line by line and writes nothing', () => {
  const cases: [string, string, { line: number; column: string | null; message: string | RegExp }[]][] = [
    ['an unknown category', ';7610000000301;Eistee;1,80;2.6;Süssgetränke', [{ line: 3, column: 'category', message: 'no category has the id or name "Süssgetränke"' }]],
    ['a price that is not a number', ';7610000000302;Eistee;gratis;2.6;Getränke', [{ line: 3, column: 'price', message: /^"gratis" is not an amount in francs/ }]],
    ['a negative price', ';7610000000303;Eistee;-1,80;2.6;Getränke', [{ line: 3, column: 'price', message: /^"-1,80" is negative/ }]],
    ['the same barcode twice in the file', ';7610000000200;Apfelsaft trüb;2,60;2.6;Getränke', [{ line: 3, column: 'barcode', message: 'the barcode "7610000000200" is also on line 2' }]],
    [
      'a barcode held by several products',
      ';7610000000103;Mineral;1,00;2.6;Getränke',
      [{ line: 3, column: 'barcode', message: '"7610000000103" is the barcode of 2 products; give the row the id or externalId of the one to update' }],
    ],
    ['a tax category that does not exist', ';7610000000304;Eistee;1,80;7.7;Getränke', [{ line: 3, column: 'taxCategory', message: '"7.7" is not a tax category; use 0, 8.1, 2.6, 3.8' }]],
    ['too many fields', ';7610000000305;Eistee;1;80;2.6;Getränke', [{ line: 3, column: null, message: /^the line has 7 fields but the header has 6/ }]],
    ['too few fields', ';7610000000306;Eistee;1,80;2.6', [{ line: 3, column: null, message: /^the line has 5 fields but the header has 6/ }]],
    ['a new product without its price', ';7610000000307;Eistee;;2.6;Getränke', [{ line: 3, column: 'price', message: 'is needed to create a product' }]],
    ['a barcode the spreadsheet shortened', ';7.61E+12;Eistee;1,80;2.6;Getränke', [{ line: 3, column: 'barcode', message: /shortened to a number/ }]],
    ['a cell with a quote never closed', ';7610000000308;"Eistee;1,80;2.6;Getränke', [{ line: 3, column: null, message: /a quoted cell is never closed/ }]],
  ];

  for (const [what, line, errors] of cases) {
    it(what, async () => {
      const before = written();
      const file = [HEADER, GOOD, line].join('\r\n');
      const checked = await sendFile(file, '?dryRun=true');
      expect(checked.status).toBe(200);
      expect(checked.body.data.errors).toEqual(errors.map((e) => ({ ...e, message: typeof e.message === 'string' ? e.message : expect.stringMatching(e.message) })));
      const imported = await sendFile(file);
      expect(imported.status).toBe(400);
      expect(imported.body).toEqual({ statusCode: 400, message: expect.stringMatching(/^The file has \d+ problems? .*nothing was imported/), timestamp: expect.any(String), path: '/api/v1/catalog/import', data: checked.body.data });
      expect(written()).toEqual(before);
    });
  }

  it('names an unknown column in the header once, with how to map or ignore it', async () => {
    const res = await sendFile('name;Preis CHF;taxCategory\nEistee;1,80;2.6\nEistee light;1,90;2.6\n');
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { line: 1, column: 'Preis CHF', message: '"Preis CHF" is not a product field; name a field (externalId, barcode, name, price, taxCategory, …), map it with ?columns=Preis%20CHF:<field>, or ignore it with ?columns=Preis%20CHF:' },
    ]);
    expect(res.body.data.errorsTotal).toBe(1);
  });

  it('names a UTF-16 file and the formats to save it in instead', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name\tprice\r\nEistee\t1,80\r\n', 'utf16le')]);
    const res = await write.request('POST', '/catalog/import', { body: utf16, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([{ line: 1, column: null, message: 'The file is UTF-16 (what Excel saves as "Unicode Text"): save it as "CSV UTF-8" or "CSV (semicolon-separated)" instead' }]);
  });

  it('counts what the good lines would do beside the errors', async () => {
    const res = await sendFile([HEADER, GOOD, 'C-1;7610000000110;Cola Zero;2,50;2.6;Getränke', ';7610000000309;Eistee;x;2.6;Getränke'].join('\n'), '?dryRun=true');
    expect(res.body.data).toEqual(
      catalogReport({
        created: 1,
        updated: 1,
        errors: [{ line: 4, column: 'price', message: expect.stringMatching(/^"x" is not an amount/) }],
        errorGroups: [{ column: 'price', message: expect.stringMatching(/^"…" is not an amount/), count: 1, lines: [4] }],
        changes: [
          { line: 3, field: 'name', from: 'Cola', to: 'Cola Zero' },
          { line: 3, field: 'category', from: null, to: 'Getränke' },
        ],
        // The made-up barcodes have wrong check digits: warned about, never blocking.
        warnings: expect.arrayContaining([{ line: 2, column: 'barcode', message: expect.stringMatching(/wrong check digit/) }]),
        warningsTotal: 2,
      }),
    );
  });

  it('answers 413 to a 50 MB file as soon as its Content-Length arrives', async () => {
    const before = written();
    const url = new URL(`${server.url}/catalog/import`);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'text/csv', 'content-length': String(50 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // Only the header row is sent: the answer must come without the rest of the 50 MB.
      req.write(`${HEADER}\r\n`);
    });
    expect(status).toBe(413);
    expect(written()).toEqual(before);
  });

  it('answers 413 to a body without Content-Length once it passes the limit', async () => {
    const before = written();
    const row = `${GOOD}\r\n`;
    const big = HEADER + '\r\n' + row.repeat(Math.ceil(MAX_CATALOG_FILE_BYTES / row.length) + 1);
    const chunks = (async function* () {
      for (let at = 0; at < big.length; at += 1 << 20) yield new TextEncoder().encode(big.slice(at, at + (1 << 20)));
    })();
    const res = await fetch(`${server.url}/catalog/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'text/csv' },
      body: ReadableStream.from(chunks),
      duplex: 'half',
    } as RequestInit).catch((err: unknown) => err);
    if (res instanceof Response) {
      expect(res.status).toBe(413);
      expect(((await res.json()) as { message: string }).message).toMatch(/^The file is larger than the limit of 20971520 bytes/);
    }
    expect(written()).toEqual(before);
  });

  it('refuses a body that is not a CSV file', async () => {
    const res = await write.post('/catalog/import', { name: 'Eistee' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Content-Type "application/json" is not accepted: send the catalog file itself as the body, with Content-Type: text/csv, or an Excel workbook with Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });
});
