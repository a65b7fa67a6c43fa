import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

async function shop() {
  const org = server.createOrg();
  return { org, write: api(server.url, org.writeKey), read: api(server.url, org.readKey) };
}

const sendFile = (client: Api, body: string | Buffer, query = '') => client.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': 'text/csv' } });
const products = async (client: Api) => (await collectPages(client, '/products?limit=5000')).items;

describe('POST /catalog/import warns about barcodes as they really arrive, and imports them as written', () => {
  it('a wrong GS1 check digit, and 7-, 11- and 12-digit codes whose leading zeros a spreadsheet dropped', async () => {
    const { write, read } = await shop();
    const file = [
      'barcode;name;price;taxCategory',
      '7610000000103;Gut;1;2.6',
      '7610000000104;Vertippt;1;2.6',
      '7612343;EAN-8 ohne Null;1;2.6',
      '36000291452;UPC-A ohne Null;1;2.6',
      '036000291452;EAN-13 ohne Null;1;2.6',
      '00017;Eigener Code;1;2.6',
    ].join('\r\n');
    const checked = await sendFile(write, file, '?dryRun=true');
    expect(checked.body.data.errors).toEqual([]);
    expect(checked.body.data.warnings).toEqual([
      { line: 3, column: 'barcode', message: '"7610000000104" has a wrong check digit (the last digit would be 3); check the code for a mistyped digit', kind: 'barcode-check-digit', params: { value: '7610000000104', expected: '3' } },
      { line: 4, column: 'barcode', message: '"7612343" looks like the EAN-8 07612343 whose leading zero a spreadsheet dropped; the scanner reads 07612343, so write it that way (format the column as text)', suggested: '07612343', kind: 'barcode-leading-zero', params: { value: '7612343', code: '07612343', format: 'EAN-8' } },
      { line: 5, column: 'barcode', message: '"36000291452" looks like the UPC-A 036000291452 whose leading zero a spreadsheet dropped; the scanner reads 036000291452, so write it that way (format the column as text)', suggested: '036000291452', kind: 'barcode-leading-zero', params: { value: '36000291452', code: '036000291452', format: 'UPC-A' } },
      { line: 6, column: 'barcode', message: expect.stringMatching(/^"036000291452" looks like the EAN-13 0036000291452 /), suggested: '0036000291452', kind: 'barcode-leading-zero', params: { value: '036000291452', code: '0036000291452', format: 'EAN-13' } },
    ]);
    expect(checked.body.data.warningsTotal).toBe(4);
    const imported = await sendFile(write, file);
    expect(imported.status).toBe(200);
    expect((await products(read)).map((p) => p.barcode).sort()).toEqual(['00017', '036000291452', '36000291452', '7610000000103', '7610000000104', '7612343']);
  });

  it('matches a row by its id first, so a corrected barcode updates the product instead of creating a second one', async () => {
    const { write, read } = await shop();
    const id = (await write.post('/products', { name: 'Mandelgipfel', price: 220, taxCategory: '2.6', barcode: '07612343' })).body.id as string;
    const exported = (await read.get('/catalog/export')).body as string;
    expect(exported).toContain(`${id};;="07612343";Mandelgipfel;2.20;`);
    // The spreadsheet dropped the leading zero; the id still names the product.
    const dropped = exported.replace('="07612343"', '7612343');
    const res = await sendFile(write, dropped);
    expect(res.body.data).toMatchObject({ created: 0, updated: 1, changes: [{ line: 2, field: 'barcode', from: '07612343', to: '7612343' }], warningsTotal: 1 });
    const fixed = exported.replace('="07612343"', '07612343');
    expect((await sendFile(write, fixed)).body.data).toMatchObject({ created: 0, updated: 1, changes: [{ line: 2, field: 'barcode', from: '7612343', to: '07612343' }], warningsTotal: 0 });
    expect((await products(read)).map((p) => [p.id, p.barcode])).toEqual([[id, '07612343']]);
  });
});

describe('POST /catalog/import warns about text read in the wrong character set', () => {
  const names = ['Rüebli Bund', 'Crème fraîche', 'Bündner Nusstorte', 'Café Crème'];
  const file = (encoding: string) => iconv.encode(['name;price;taxCategory', ...names.map((name) => `${name};1,95;2.6`)].join('\r\n'), encoding);

  for (const [encoding, writtenIn, charset, shown] of [
    ['macintosh', 'Mac Roman (as old Mac programs save)', 'mac-roman', 'RŸebli Bund'],
    ['cp850', 'CP850 (as DOS and cash-register programs save)', 'cp850', 'R\u0081ebli Bund'],
  ] as const) {
    it(`a file written in ${encoding}`, async () => {
      const { write } = await shop();
      const res = await sendFile(write, file(encoding), '?dryRun=true');
      expect(res.body.data.errors).toEqual([]);
      expect(res.body.data.warningsTotal).toBe(4);
      expect(res.body.data.warnings[0]).toEqual({
        line: 2,
        column: 'name',
        message: `${JSON.stringify(shown)} looks like text written in ${writtenIn}: it would read "Rüebli Bund". Save the file as "CSV UTF-8" or as a workbook and check it again`,
        kind: 'text-misread',
        params: { value: shown, reads: 'Rüebli Bund', charset },
      });
      expect(res.body.data.warnings.map((w: { message: string }) => /it would read "([^"]+)"/.exec(w.message)![1])).toEqual(names);
    });
  }

  it('UTF-8 text read as Windows-1252 and saved again as UTF-8 (Ã¼ for ü)', async () => {
    const { write } = await shop();
    const bytes = Buffer.from(iconv.decode(file('utf8'), 'win1252'), 'utf8');
    const res = await sendFile(write, bytes, '?dryRun=true');
    expect(res.body.data.warnings.map((w: { message: string }) => w.message)).toContain(
      '"RÃ¼ebli Bund" looks like text written in UTF-8 read as Windows-1252: it would read "Rüebli Bund". Save the file as "CSV UTF-8" or as a workbook and check it again',
    );
  });

  it('letters a save replaced by "?", against what the product holds', async () => {
    const { write } = await shop();
    await write.post('/products', { name: 'Rüebli Bund', price: 195, taxCategory: '2.6', externalId: 'R-1' });
    const res = await sendFile(write, 'externalId;name;price\r\nR-1;R?ebli Bund;2,10\r\n;Gem?se Mix;3;2.6\r\n'.replace(';3;2.6', ';3'), '?dryRun=true');
    expect(res.body.data.warnings).toEqual([
      { line: 2, column: 'name', message: '"R?ebli Bund" has "?" where letters were (the product has "Rüebli Bund"): the file was saved in a character set without them; save it as "CSV UTF-8" or as a workbook', kind: 'letters-lost-stored', params: { value: 'R?ebli Bund', stored: 'Rüebli Bund' } },
      { line: 3, column: 'name', message: '"Gem?se Mix" has "?" where letters were: the file was saved in a character set without them; save it as "CSV UTF-8" or as a workbook', kind: 'letters-lost', params: { value: 'Gem?se Mix' } },
    ]);
    expect(res.body.data.changes).toEqual([
      { line: 2, field: 'name', from: 'Rüebli Bund', to: 'R?ebli Bund' },
      { line: 2, field: 'price', from: '1.95', to: '2.10' },
    ]);
  });

  it('no warning for a Windows-1252 file written as Excel writes it', async () => {
    const { write } = await shop();
    const res = await sendFile(write, iconv.encode(['name;price;taxCategory', 'Kaffee™ Gold;1;2.6', ...names.map((n) => `${n};1;2.6`)].join('\r\n'), 'win1252'), '?dryRun=true');
    expect(res.body.data).toMatchObject({ created: 5, errors: [], warnings: [] });
  });
});

describe('POST /catalog/import reports a large check readably', () => {
  it('lists the first 1,000 changes and errors with their totals, and groups the errors by column and kind', async () => {
    const { write } = await shop();
    const rows = Array.from({ length: 1200 }, (_, i) => `P-${i};Artikel ${i};1.00;2.6`);
    expect((await sendFile(write, ['externalId;name;price;taxCategory', ...rows].join('\r\n'))).body.data.created).toBe(1200);

    const dearer = ['externalId;name;price;taxCategory', ...rows.map((row) => row.replace(';1.00;', ';1.10;'))].join('\r\n');
    const changed = (await sendFile(write, dearer, '?dryRun=true')).body.data;
    expect(changed).toMatchObject({ updated: 1200, changesTotal: 1200 });
    expect(changed.changes).toHaveLength(1000);
    expect(changed.changes[0]).toEqual({ line: 2, field: 'price', from: '1.00', to: '1.10' });

    const broken = ['externalId;name;price;taxCategory', ...rows.map((row, i) => (i % 2 === 0 ? row.replace(';1.00;', ';gratis;') : row.replace(';2.6', ';7.7')))].join('\r\n');
    const refused = await sendFile(write, broken);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^The file has 1200 problems/);
    const report = refused.body.data;
    expect(report.errorsTotal).toBe(1200);
    expect(report.errors).toHaveLength(1000);
    expect(report.errors[0]).toEqual({ line: 2, column: 'price', message: expect.stringMatching(/^"gratis" is not an amount in francs/), kind: 'francs-invalid', params: { value: 'gratis' } });
    expect(report.errorGroups).toEqual([
      { column: 'price', message: expect.stringMatching(/^"…" is not an amount in francs/), kind: 'francs-invalid', params: {}, count: 600, lines: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20] },
      { column: 'taxCategory', message: '"…" is not a tax category; use 0, 8.1, 2.6, 3.8', kind: 'tax-invalid', params: { options: '0, 8.1, 2.6, 3.8' }, count: 600, lines: [3, 5, 7, 9, 11, 13, 15, 17, 19, 21] },
    ]);
  });
});

describe('POST /catalog/import?fixBarcodes=true writes the barcodes the warnings suggest', () => {
  it('puts back dropped leading zeros, and takes the product\'s own code for one a digit off; a code it cannot tell stays warned', async () => {
    const { write, read } = await shop();
    const milk = (await write.post('/products', { name: 'Vollmilch', price: 195, taxCategory: '2.6', barcode: '7610000000103', externalId: 'A-1' })).body.id as string;
    const croissant = (await write.post('/products', { name: 'Mandelgipfel', price: 220, taxCategory: '2.6', barcode: '07612343' })).body.id as string;
    const file = [
      'externalId;barcode;name;price;taxCategory',
      'A-1;7610000000130;Vollmilch;2,05;2.6',
      ';7612343;Mandelgipfel;2,40;2.6',
      ';7610000000218;Neu vertippt;1;2.6',
      ';36000291452;Neu ohne Null;1;2.6',
    ].join('\r\n');
    const checked = (await sendFile(write, file, '?dryRun=true')).body.data;
    expect(checked.warnings).toEqual([
      { line: 2, column: 'barcode', message: '"7610000000130" has a wrong check digit (the last digit would be 4); the product\'s barcode is 7610000000103, one typing slip away: check the code for a mistyped digit', suggested: '7610000000103', kind: 'barcode-check-digit-product', params: { value: '7610000000130', expected: '4', productBarcode: '7610000000103' } },
      { line: 3, column: 'barcode', message: expect.stringMatching(/^"7612343" looks like the EAN-8 07612343 /), suggested: '07612343', kind: 'barcode-leading-zero', params: { value: '7612343', code: '07612343', format: 'EAN-8' } },
      { line: 4, column: 'barcode', message: '"7610000000218" has a wrong check digit (the last digit would be 9); check the code for a mistyped digit', kind: 'barcode-check-digit', params: { value: '7610000000218', expected: '9' } },
      { line: 5, column: 'barcode', message: expect.stringMatching(/^"36000291452" looks like the UPC-A 036000291452 /), suggested: '036000291452', kind: 'barcode-leading-zero', params: { value: '36000291452', code: '036000291452', format: 'UPC-A' } },
    ]);
    // As written, the row without its leading zero would create a second Mandelgipfel.
    expect(checked).toMatchObject({ created: 3, updated: 1, warningsFixable: 3, barcodesFixed: 0 });

    const fixed = (await sendFile(write, file, '?dryRun=true&fixBarcodes=true')).body.data;
    expect(fixed).toMatchObject({ created: 2, updated: 2, warningsTotal: 1, warningsFixable: 0, barcodesFixed: 3 });
    expect(fixed.warnings.map((w: { line: number }) => w.line)).toEqual([4]);
    expect(fixed.changes).toEqual([
      { line: 2, field: 'price', from: '1.95', to: '2.05' },
      { line: 3, field: 'price', from: '2.20', to: '2.40' },
    ]);

    expect((await sendFile(write, file, '?fixBarcodes=true')).status).toBe(200);
    const byCode = Object.fromEntries((await products(read)).map((p) => [p.barcode, p.id]));
    expect(byCode).toEqual({ '7610000000103': milk, '07612343': croissant, '7610000000218': expect.any(String), '036000291452': expect.any(String) });
  });

  it('groups 2,000 warnings of one kind into one group, and refuses a fixBarcodes that is not true or false', async () => {
    const { write } = await shop();
    const codes = Array.from({ length: 2000 }, (_, i) => String(100000 + i)).map((body) => body + String((10 - ([...body].reduce((sum, d, i) => sum + Number(d) * (i % 2 === 0 ? 1 : 3), 0) % 10)) % 10));
    const file = ['barcode;name;price;taxCategory', ...codes.map((code, i) => `${code};Artikel ${i};1;2.6`)].join('\r\n');
    const res = (await sendFile(write, file, '?dryRun=true')).body.data;
    expect(res).toMatchObject({ warningsTotal: 2000, warningsFixable: 2000 });
    expect(res.warnings).toHaveLength(1000);
    expect(res.warningGroups).toEqual([{ column: 'barcode', message: expect.stringMatching(/^"…" looks like the EAN-8 … whose leading zero/), kind: 'barcode-leading-zero', params: { format: 'EAN-8' }, count: 2000, lines: [2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }]);
    expect((await sendFile(write, file, '?dryRun=true&fixBarcodes=yes')).status).toBe(400);
  });
});
