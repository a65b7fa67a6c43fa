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

describe('POST /catalog/import names every problem by its kind and the values its text needs', () => {
  /** A shop of its own, whose names repeat where the file needs them to. */
  async function shop() {
    const client = api(server.url, server.createOrg().writeKey);
    for (const name of ['Brot', 'Brot']) await client.post('/categories', { name });
    await client.post('/categories', { name: 'Gemüse', marginMinPercent: 20, marginMaxPercent: 40 });
    for (const name of ['Zopf', 'Zopf gross']) await client.post('/products', { name, price: 450, taxCategory: '2.6', externalId: 'X-2' });
    return client;
  }
  const check = (client: Api, file: string[]) => client.request('POST', '/catalog/import?dryRun=true', { body: file.join('\r\n'), headers: { 'content-type': 'text/csv' } });

  it('cells, references and the product\'s own rules', async () => {
    const client = await shop();
    const res = await check(client, [
      'externalId;name;price;taxCategory;category;supplier;saleStop;salePriceDateFrom;index;minimumAge;ageRestriction',
      'A-1;Zopf;4,50;2.6;Brot;;vielleicht;;;;',
      'A-2;Zopf;4,50;2.6;;Müller AG;;31.02.2026;x;;',
      'A-3;Zopf;4,50;2.6;;;;;;17;',
      'A-4;Zopf;4,50;2.6;;;;;;18;nein',
      'X-2;Zopf;4,50;2.6;;;;;;;',
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data.errors).toEqual([
      { line: 2, column: 'saleStop', kind: 'boolean-invalid', params: { value: 'vielleicht' }, message: expect.stringMatching(/^"vielleicht" is neither true nor false/) },
      { line: 2, column: 'category', kind: 'category-ambiguous', params: { value: 'Brot', count: '2' }, message: '"Brot" is the name of 2 categories; write the id of the one meant' },
      { line: 3, column: 'salePriceDateFrom', kind: 'date-invalid', params: { value: '31.02.2026' }, message: expect.stringMatching(/^"31.02.2026" is not a date/) },
      { line: 3, column: 'index', kind: 'integer-invalid', params: { value: 'x' }, message: '"x" is not a whole number' },
      { line: 3, column: 'supplier', kind: 'supplier-unknown', params: { value: 'Müller AG' }, message: 'no supplier has the id or name "Müller AG"' },
      { line: 4, column: 'minimumAge', kind: 'invalid-option', params: { options: '16, 18' }, message: 'must be 16 or 18' },
      { line: 5, column: 'minimumAge', kind: 'age-limit-conflict', params: {}, message: expect.stringMatching(/^cannot be set together with ageRestriction: false/) },
      { line: 6, column: 'externalId', kind: 'external-id-ambiguous', params: { value: 'X-2', count: '2' }, message: '"X-2" is the externalId of 2 products; the row cannot tell which to update' },
    ]);
    // A group keeps what all its lines share and leaves each line's values out.
    expect(res.body.data.errorGroups).toContainEqual({ column: 'index', kind: 'integer-invalid', params: {}, message: '"…" is not a whole number', count: 1, lines: [3] });
    expect(res.body.data.errorGroups).toContainEqual({ column: 'minimumAge', kind: 'invalid-option', params: { options: '16, 18' }, message: 'must be 16 or 18', count: 1, lines: [4] });
  });

  it('the header', async () => {
    const res = await check(await shop(), ['name;Bezeichnung;;price;taxCategory', 'Zopf;Zopf;x;4,50;2.6']);
    expect(res.body.data.errors).toEqual([
      { line: 1, column: 'Bezeichnung', kind: 'header-twice', params: { field: 'name', other: 'name' }, message: 'the column name appears twice (also as "name")' },
      { line: 1, column: null, kind: 'header-missing', params: { position: '3' }, message: 'column 3 has values but no header; name it (e.g. price) or map it with ?columns=' },
    ]);
  });

  it('warnings', async () => {
    const res = await check(await shop(), ['barcode;name;price;costPrice;taxCategory;category', '7612343;Gem?se Mix;4,00;3,50;2.6;Gemüse', '7612350;Lauch;4,00;1,00;2.6;Gemüse']);
    expect(res.body.data.errors).toEqual([]);
    expect(res.body.data.warnings).toEqual([
      {
        line: 2,
        column: 'barcode',
        kind: 'barcode-leading-zero',
        params: { value: '7612343', code: '07612343', format: 'EAN-8' },
        message: expect.stringMatching(/^"7612343" looks like the EAN-8 07612343 /),
        suggested: '07612343',
      },
      { line: 2, column: 'name', kind: 'letters-lost', params: { value: 'Gem?se Mix' }, message: expect.stringMatching(/^"Gem\?se Mix" has "\?" where letters were:/) },
      { line: 2, column: 'costPrice', kind: 'margin-below', params: { margin: '12.5', price: '4.00', costPrice: '3.50', limit: '20', category: 'Gemüse' }, message: expect.stringMatching(/^the margin 12.5 %/) },
      { line: 3, column: 'barcode', kind: 'barcode-leading-zero', params: { value: '7612350', code: '07612350', format: 'EAN-8' }, message: expect.any(String), suggested: '07612350' },
      { line: 3, column: 'costPrice', kind: 'margin-above', params: { margin: '75', price: '4.00', costPrice: '1.00', limit: '40', category: 'Gemüse' }, message: expect.stringMatching(/above the maximum 40 %/) },
    ]);
    expect(res.body.data.warningGroups).toContainEqual({
      column: 'barcode',
      kind: 'barcode-leading-zero',
      params: { format: 'EAN-8' },
      message: '"…" looks like the EAN-8 … whose leading zero a spreadsheet dropped; the scanner reads …, so write it that way (format the column as text)',
      count: 2,
      lines: [2, 3],
    });
  });
});

describe('POST /catalog/import refuses bad input line by line and writes nothing', () => {
  type Expected = { line: number; column: string | null; message: string | RegExp; kind: string; params: Record<string, string> };
  const cases: [string, string, Expected[]][] = [
    [
      'an unknown category',
      ';7610000000301;Eistee;1,80;2.6;Süssgetränke',
      [{ line: 3, column: 'category', message: 'no category has the id or name "Süssgetränke"', kind: 'category-unknown', params: { value: 'Süssgetränke' } }],
    ],
    [
      'a price that is not a number',
      ';7610000000302;Eistee;gratis;2.6;Getränke',
      [{ line: 3, column: 'price', message: /^"gratis" is not an amount in francs/, kind: 'francs-invalid', params: { value: 'gratis' } }],
    ],
    ['a negative price', ';7610000000303;Eistee;-1,80;2.6;Getränke', [{ line: 3, column: 'price', message: /^"-1,80" is negative/, kind: 'francs-negative', params: { value: '-1,80' } }]],
    [
      'the same barcode twice in the file',
      ';7610000000200;Apfelsaft trüb;2,60;2.6;Getränke',
      [{ line: 3, column: 'barcode', message: 'the barcode "7610000000200" is also on line 2', kind: 'barcode-repeated', params: { value: '7610000000200', otherLine: '2' } }],
    ],
    [
      'a barcode held by several products',
      ';7610000000103;Mineral;1,00;2.6;Getränke',
      [
        {
          line: 3,
          column: 'barcode',
          message: '"7610000000103" is the barcode of 2 products; give the row the id or externalId of the one to update',
          kind: 'barcode-ambiguous',
          params: { value: '7610000000103', count: '2' },
        },
      ],
    ],
    [
      'a tax category that does not exist',
      ';7610000000304;Eistee;1,80;7.7;Getränke',
      [{ line: 3, column: 'taxCategory', message: '"7.7" is not a tax category; use 0, 8.1, 2.6, 3.8', kind: 'tax-invalid', params: { value: '7.7', options: '0, 8.1, 2.6, 3.8' } }],
    ],
    [
      'too many fields',
      ';7610000000305;Eistee;1;80;2.6;Getränke',
      [{ line: 3, column: null, message: /^the line has 7 fields but the header has 6/, kind: 'line-fields', params: { count: '7', expected: '6' } }],
    ],
    [
      'too few fields',
      ';7610000000306;Eistee;1,80;2.6',
      [{ line: 3, column: null, message: /^the line has 5 fields but the header has 6/, kind: 'line-fields', params: { count: '5', expected: '6' } }],
    ],
    ['a new product without its price', ';7610000000307;Eistee;;2.6;Getränke', [{ line: 3, column: 'price', message: 'is needed to create a product', kind: 'required', params: {} }]],
    [
      'a barcode the spreadsheet shortened',
      ';7.61E+12;Eistee;1,80;2.6;Getränke',
      [{ line: 3, column: 'barcode', message: /shortened to a number/, kind: 'barcode-shortened', params: { value: '7.61E+12' } }],
    ],
    [
      'a cell with a quote never closed',
      ';7610000000308;"Eistee;1,80;2.6;Getränke',
      [{ line: 3, column: null, message: /a quoted cell is never closed/, kind: 'quote-not-closed', params: {} }],
    ],
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
      {
        line: 1,
        column: 'Preis CHF',
        message: '"Preis CHF" is not a product field; name a field (externalId, barcode, name, price, taxCategory, …), map it with ?columns=Preis%20CHF:<field>, or ignore it with ?columns=Preis%20CHF:',
        kind: 'header-unknown',
        params: { header: 'Preis CHF' },
      },
    ]);
    expect(res.body.data.errorsTotal).toBe(1);
  });

  it('names a UTF-16 file and the formats to save it in instead', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('name\tprice\r\nEistee\t1,80\r\n', 'utf16le')]);
    const res = await write.request('POST', '/catalog/import', { body: utf16, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { line: 1, column: null, message: 'The file is UTF-16 (what Excel saves as "Unicode Text"): save it as "CSV UTF-8" or "CSV (semicolon-separated)" instead', kind: 'file-utf16', params: {} },
    ]);
  });

  it('counts what the good lines would do beside the errors', async () => {
    const res = await sendFile([HEADER, GOOD, 'C-1;7610000000110;Cola Zero;2,50;2.6;Getränke', ';7610000000309;Eistee;x;2.6;Getränke'].join('\n'), '?dryRun=true');
    expect(res.body.data).toEqual(
      catalogReport({
        created: 1,
        updated: 1,
        errors: [{ line: 4, column: 'price', message: expect.stringMatching(/^"x" is not an amount/), kind: 'francs-invalid', params: { value: 'x' } }],
        errorGroups: [{ column: 'price', message: expect.stringMatching(/^"…" is not an amount/), kind: 'francs-invalid', params: {}, count: 1, lines: [4] }],
        changes: [
          { line: 3, field: 'name', from: 'Cola', to: 'Cola Zero' },
          { line: 3, field: 'category', from: null, to: 'Getränke' },
        ],
        // The made-up barcodes have wrong check digits: warned about, never blocking.
        warnings: expect.arrayContaining([{ line: 2, column: 'barcode', message: expect.stringMatching(/wrong check digit/), kind: 'barcode-check-digit', params: { value: '7610000000200', expected: '2' } }]),
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
