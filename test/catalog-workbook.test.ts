import { readSheet } from 'read-excel-file/node';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WORKBOOK_UNPACKED_BYTES, WORKBOOK_TYPE } from '../shared/api/catalog.js';
import { api, collectPages, type Api } from './support/api.js';
import { catalogReport } from './support/catalog-report.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { zipFile } from './support/zip-file.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

async function shop() {
  const org: TestOrg = server.createOrg();
  const write = api(server.url, org.writeKey);
  const read = api(server.url, org.readKey);
  const dairy = (await write.post('/categories', { name: 'Milchprodukte' })).body.id as string;
  return { org, write, read, dairy };
}

const sendFile = (client: Api, body: Buffer | string, query = '', type = WORKBOOK_TYPE) => client.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': type } });
const products = async (client: Api) => (await collectPages(client, '/products?limit=5000')).items;

function stored(orgId: string) {
  const db = server.sqlite();
  return (db.prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(orgId) as { n: number }).n;
}

async function exportWorkbook(org: TestOrg): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${server.url}/catalog/export?format=xlsx`, { headers: { authorization: `Bearer ${org.readKey}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('POST /catalog/import of an Excel workbook', () => {
  it('reads the first sheet, numbers, booleans and dates as the shop typed them', async () => {
    const { org, write, read, dairy } = await shop();
    const workbook = await writeXlsxFile(
      [
        [
          [{ value: 'Strichcode' }, { value: 'Bezeichnung' }, { value: 'Preis' }, { value: 'MWST' }, { value: 'Kategorie' }, { value: 'Altersbeschränkung' }, { value: 'Aktion ab' }, { value: 'Aktionspreis' }],
          [{ value: '7610000000103', type: String }, { value: 'Vollmilch 1l' }, { value: 1.95, type: Number }, { value: 2.6, type: Number }, { value: 'Milchprodukte' }, { value: false, type: Boolean }, { value: new Date('2026-12-01T00:00:00.000Z'), type: Date, format: 'dd.mm.yyyy' }, { value: 1.5, type: Number }],
          [{ value: 7610000000202, type: Number }, { value: 'Apfelwein' }, { value: 'Fr. 6,90' }, { value: '8.1' }, null, { value: true, type: Boolean }, null, null],
        ],
        [[{ value: 'Notizen' }], [{ value: 'not read' }]],
      ].map((data, i) => ({ data, sheet: i === 0 ? 'Artikel' : 'Notizen' })),
    ).toBuffer();
    const checked = await sendFile(write, workbook, `?dryRun=true&columns=${encodeURIComponent('Altersbeschränkung:ageRestriction')}`);
    expect(checked.status).toBe(200);
    expect(checked.body.data).toEqual(catalogReport({ created: 2 }));
    expect(stored(org.id)).toBe(0);
    expect((await sendFile(write, workbook, `?columns=${encodeURIComponent('Altersbeschränkung:ageRestriction')}`)).status).toBe(200);
    const byBarcode = Object.fromEntries((await products(read)).map((p) => [p.barcode, p]));
    expect(byBarcode['7610000000103']).toMatchObject({ name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', category: dairy, salePrice: 150, salePriceDateFrom: '2026-12-01T00:00:00.000Z' });
    expect(byBarcode['7610000000202']).toMatchObject({ name: 'Apfelwein', price: 690, taxCategory: '8.1', ageRestriction: true });
  });

  it('exports a workbook whose barcodes are text cells, which imports unchanged', async () => {
    const { org, write } = await shop();
    await write.post('/products', { name: 'Vollmilch', price: 195, taxCategory: '2.6', barcode: '07610000000103', externalId: 'A-1' });
    await write.post('/products', { name: '=HYPERLINK("x")', price: 1290, taxCategory: '8.1', barcode: '036000291452', minimumAge: 16, ageRestriction: true });
    const first = await exportWorkbook(org);
    expect(first.status).toBe(200);
    expect(first.type).toBe(WORKBOOK_TYPE);
    const rows = (await readSheet(first.bytes)) as unknown[][];
    expect(rows[0]!.slice(0, 5)).toEqual(['id', 'externalId', 'barcode', 'name', 'price']);
    const barcodes = rows.slice(1).map((row) => row[2]);
    expect(barcodes.sort()).toEqual(['036000291452', '07610000000103']);
    expect(rows.slice(1).map((row) => row[4]).sort()).toEqual([1.95, 12.9]);

    const again = await sendFile(write, first.bytes);
    expect(again.body).toEqual({ data: catalogReport({ unchanged: 2, warnings: [{ line: expect.any(Number), column: 'barcode', message: expect.stringMatching(/^"036000291452" looks like the EAN-13 0036000291452/), suggested: '0036000291452', kind: 'barcode-leading-zero', params: { value: '036000291452', code: '0036000291452', format: 'EAN-13' } }] }) });
    expect((await readSheet((await exportWorkbook(org)).bytes)) as unknown[][]).toEqual(rows);
  });

  it('refuses a workbook that unpacks to more than the limit, even when it lies about its size', async () => {
    const { org, write } = await shop();
    const bomb = zipFile([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(MAX_WORKBOOK_UNPACKED_BYTES + 1024, 0x20), deflate: true, declaredSize: 1000, crc: 0 },
    ]);
    expect(bomb.length).toBeLessThan(200_000);
    const res = await sendFile(write, bomb, '?dryRun=true');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`The workbook cannot be read: the workbook unpacks to more than ${MAX_WORKBOOK_UNPACKED_BYTES} bytes`);
    expect(stored(org.id)).toBe(0);
  });
});

describe('POST /catalog/import names a file that is not what it was sent as', () => {
  const cases: [string, () => Promise<Buffer> | Buffer, string, RegExp][] = [
    ['a workbook renamed .csv', async () => writeXlsxFile([[{ value: 'name' }]]).toBuffer(), 'text/csv', /^The file is an Excel workbook \(\.xlsx\), sent as CSV \(perhaps renamed to \.csv\): send it with Content-Type application\/vnd\.openxmlformats/],
    [
      'an OpenDocument spreadsheet',
      () => zipFile([{ name: 'mimetype', data: Buffer.from('application/vnd.oasis.opendocument.spreadsheet') }, { name: 'content.xml', data: Buffer.from('<office:document-content/>'), deflate: true }]),
      'text/csv',
      /^The file is an OpenDocument spreadsheet \(\.ods, from LibreOffice or OpenOffice\), which is not read here: save it as "Excel 2007-365 \(\.xlsx\)" or as CSV/,
    ],
    ['an old Excel 97-2003 workbook', () => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]), 'application/vnd.ms-excel', /^The file is an old Excel workbook \(\.xls, Excel 97-2003\)/],
    ['a CSV file sent as a workbook', () => Buffer.from('name;price\r\nMilch;1\r\n'), WORKBOOK_TYPE, /^The file was sent as an Excel workbook but is text \(a CSV file\?\): send it with Content-Type text\/csv/],
    ['a damaged workbook', () => Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.from('xl/workbook.xml'), Buffer.alloc(100)]), WORKBOOK_TYPE, /^The workbook cannot be read: the workbook is damaged or cut off/],
  ];
  for (const [what, file, type, message] of cases) {
    it(what, async () => {
      const { org, write } = await shop();
      for (const query of ['?dryRun=true', '']) {
        const res = await sendFile(write, await file(), query, type);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ statusCode: 400, message: expect.stringMatching(message), timestamp: expect.any(String), path: `/api/v1/catalog/import${query}` });
      }
      expect(stored(org.id)).toBe(0);
    });
  }
});
