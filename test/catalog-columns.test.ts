import iconv from 'iconv-lite';
import writeXlsxFile from 'write-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKBOOK_TYPE } from '../shared/api/catalog.js';
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
  const write = api(server.url, org.writeKey);
  const read = api(server.url, org.readKey);
  const dairy = (await write.post('/categories', { name: 'Milchprodukte' })).body.id as string;
  const vegetables = (await write.post('/categories', { name: 'Gemüse' })).body.id as string;
  return { org, write, read, dairy, vegetables };
}

const sendFile = (client: Api, body: string | Buffer, query = '') => client.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': 'text/csv' } });
const products = async (client: Api) => (await collectPages(client, '/products?limit=5000')).items;
const byBarcode = async (client: Api) => Object.fromEntries((await products(client)).map((p) => [p.barcode, p]));

/** Products and outbox entries of an organization, to prove that a check writes nothing. */
function stored(orgId: string) {
  const db = server.sqlite();
  return {
    products: (db.prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(orgId) as { n: number }).n,
    outbox: (db.prepare('SELECT count(*) AS n FROM outbox WHERE org_id = ?').get(orgId) as { n: number }).n,
  };
}

describe('POST /catalog/import reads the headers a Swiss shop writes', () => {
  it('a file as Excel (de-CH) saves "CSV (Trennzeichen-getrennt)": Windows-1252, ;, CRLF, empty columns at the end', async () => {
    const { org, write, read, dairy, vegetables } = await shop();
    const text =
      'Strichcode;Bezeichnung;Preis;MWST;Kategorie;;;\r\n' +
      '7610000000103;Vollmilch 1l;Fr. 1,95;2,6%;Milchprodukte;;;\r\n' +
      '7610000000202;Rüebli Bund;1,95 Fr.;2.6;Gemüse;;;\r\n' +
      "7610000000301;Bündner Bergkäse;1'234.50;2,6;Milchprodukte;;;\r\n" +
      ';;;;;;;\r\n';
    const bytes = iconv.encode(text, 'win1252');
    expect(bytes.includes(Buffer.from('ü', 'utf8'))).toBe(false);
    const before = stored(org.id);
    const checked = await sendFile(write, bytes, '?dryRun=true');
    expect(checked.status).toBe(200);
    expect(checked.body.data).toMatchObject({ created: 3, updated: 0, unchanged: 0, errors: [], errorsTotal: 0, warnings: [] });
    expect(stored(org.id)).toEqual(before);
    expect((await sendFile(write, bytes)).status).toBe(200);
    const list = await byBarcode(read);
    expect(list['7610000000103']).toMatchObject({ name: 'Vollmilch 1l', price: 195, taxCategory: '2.6', category: dairy });
    expect(list['7610000000202']).toMatchObject({ name: 'Rüebli Bund', price: 195, category: vegetables });
    expect(list['7610000000301']).toMatchObject({ name: 'Bündner Bergkäse', price: 123450 });
  });

  it('a file as LibreOffice (fr-CH) saves it: UTF-8, ",", LF, text quoted when it holds a comma', async () => {
    const { write, read, dairy } = await shop();
    const text =
      'Code-barres,Désignation,Prix,TVA,Catégorie,Fournisseur,Âge minimum,Vente stoppée\n' +
      '7610000000103,Crème entière,"Fr. 4,20",2.6,milchprodukte,,,FAUX\n' +
      '7610000000202,Apfelwein,0.60 CHF,8.1,,,16,VRAI\n';
    const res = await sendFile(write, Buffer.from(text, 'utf8'), `?columns=${encodeURIComponent('Vente stoppée:saleStop,Fournisseur:')}`);
    expect(res.body.data).toMatchObject({ created: 2, errors: [] });
    const list = await byBarcode(read);
    expect(list['7610000000103']).toMatchObject({ name: 'Crème entière', price: 420, category: dairy, saleStop: false });
    expect(list['7610000000202']).toMatchObject({ price: 60, minimumAge: 16, saleStop: true });
  });

  it('a file as Numbers (it-CH) exports it: UTF-8, ;, CRLF, sì/no and dates 01.12.2026', async () => {
    const { write, read } = await shop();
    const text =
      'Codice a barre;Descrizione;Prezzo;IVA;Prezzo azione;Azione dal;Azione fino al;Disattivato\r\n' +
      '7610000000103;Formaggio;CHF 4.–;2,6;3,50;01.12.2026;31.12.2026;no\r\n' +
      '7610000000202;Panettone;1.234,50;2,6;;;;sì\r\n';
    const columns = encodeURIComponent('Azione dal:salePriceDateFrom,Azione fino al:salePriceDateTo,Disattivato:deactivated');
    const res = await sendFile(write, Buffer.from(text, 'utf8'), `?columns=${columns}`);
    expect(res.body.data).toMatchObject({ created: 2, errors: [] });
    const list = await byBarcode(read);
    expect(list['7610000000103']).toMatchObject({
      name: 'Formaggio',
      price: 400,
      salePrice: 350,
      salePriceDateFrom: '2026-12-01T00:00:00.000Z',
      salePriceDateTo: '2026-12-31T00:00:00.000Z',
    });
    expect(list['7610000000202']).toMatchObject({ price: 123450, deactivated: true });
  });

  it('reads the Swiss forms of amounts, booleans and dates, and refuses what is ambiguous', async () => {
    const { write } = await shop();
    const amounts = ['Fr. 1,95', '1,95 Fr.', '0.60 CHF', 'CHF 4.–', 'CHF 4.-', "1'234.50", '1.234,50', '1,234.50', '1 234,50'];
    const booleans = ['ja', 'nein', 'WAHR', 'FALSCH', 'oui', 'non', 'VRAI', 'FAUX', 'sì', 'no', 'VERO', 'FALSO'];
    const lines = amounts.map((amount, i) => `Artikel ${i};"${amount}";2.6;${booleans[i] ?? ''};01.12.2026`);
    lines.push(...booleans.slice(amounts.length).map((word, i) => `Artikel b${i};1;2.6;${word};`));
    const file = ['Bezeichnung;Preis;MWST;Verkaufsstopp;Aktion ab', ...lines].join('\r\n');
    const res = await sendFile(write, file, '?dryRun=true');
    expect(res.body.data).toMatchObject({ created: lines.length, errors: [] });

    const refused = await sendFile(write, 'Bezeichnung;Preis;MWST;Verkaufsstopp;Aktion ab\r\nA;1.234;2.6;vielleicht;31.02.2026\r\n', '?dryRun=true');
    expect(refused.body.data.errors).toEqual([
      { line: 2, column: 'Preis', message: `"1.234" is not an amount in francs; write it as on a receipt, e.g. 1.95, 1,95, Fr. 1.95 or 1'234.50`, kind: 'francs-invalid', params: { value: '1.234' } },
      { line: 2, column: 'Verkaufsstopp', message: '"vielleicht" is neither true nor false (also 1/0, ja/nein, WAHR/FALSCH, oui/non, VRAI/FAUX, sì/no, VERO/FALSO)', kind: 'boolean-invalid', params: { value: 'vielleicht' } },
      { line: 2, column: 'Aktion ab', message: '"31.02.2026" is not a date; write it as 01.12.2026, 2026-12-01 or 2026-12-01T23:59:59Z', kind: 'date-invalid', params: { value: '31.02.2026' } },
    ]);
  });

  it('compares headers without case, accents or punctuation, and refuses a column with values but no header', async () => {
    const { write } = await shop();
    const ok = await sendFile(write, 'STRICHCODE;bezeichnung;PREIS;mwst;categorie;code barres\r\n7610000000103;Milch;1;2.6;;\r\n', '?dryRun=true');
    expect(ok.body.data.errors).toEqual([
      { line: 1, column: 'code barres', message: 'the column barcode appears twice (also as "STRICHCODE")', kind: 'header-twice', params: { field: 'barcode', other: 'STRICHCODE' } },
    ]);
    const unnamed = await sendFile(write, 'Bezeichnung;Preis;MWST;\r\nMilch;1;2.6;x\r\n', '?dryRun=true');
    expect(unnamed.body.data.errors).toEqual([{ line: 1, column: null, message: 'column 4 has values but no header; name it (e.g. price) or map it with ?columns=', kind: 'header-missing', params: { position: '4' } }]);
  });

  it('refuses a ?columns= that maps to no product field, in the validation shape', async () => {
    const { write } = await shop();
    const res = await sendFile(write, 'Preis\r\n1\r\n', `?columns=${encodeURIComponent('Preis:preis')}`);
    expect(res.status).toBe(400);
    expect(res.body.error.fieldErrors.columns[0]).toMatch(/^Preis:preis: the field must be one of id, externalId, barcode/);
    const malformed = await sendFile(write, 'Preis\r\n1\r\n', '?columns=Preis');
    expect(malformed.status).toBe(400);
  });
});

describe('/catalog/columns keeps a mapping per organization', () => {
  it('is used by the next imports, loses to ?columns=, and stays with its organization', async () => {
    const { write, read } = await shop();
    const other = await shop();
    expect((await read.get('/catalog/columns')).body).toEqual({ data: {} });
    expect((await read.post('/catalog/columns', { Artikeltext: 'name' })).status).toBe(403);
    const bad = await write.post('/catalog/columns', { Artikeltext: 'titel' });
    expect(bad.status).toBe(400);

    const kept = await write.post('/catalog/columns', { Artikeltext: 'name', 'VK CHF': 'price', Notiz: '' });
    expect(kept.status).toBe(200);
    expect(kept.body).toEqual({ data: { Artikeltext: 'name', 'VK CHF': 'price', Notiz: '' } });
    expect((await read.get('/catalog/columns')).body).toEqual(kept.body);
    expect((await other.read.get('/catalog/columns')).body).toEqual({ data: {} });

    const file = 'Strichcode;ARTIKELTEXT;VK CHF;MWST;Notiz\r\n7610000000103;Milch;1,95;2.6;nachbestellen\r\n';
    expect((await sendFile(write, file, '?dryRun=true')).body.data).toMatchObject({ created: 1, errors: [] });
    expect((await sendFile(other.write, file, '?dryRun=true')).body.data.errors.map((e: { column: string }) => e.column)).toEqual(['ARTIKELTEXT', 'VK CHF', 'Notiz']);
    const overridden = await sendFile(write, file, `?dryRun=true&columns=${encodeURIComponent('VK CHF:costPrice')}`);
    expect(overridden.body.data.errors).toEqual([{ line: 2, column: 'price', message: 'is needed to create a product', kind: 'required', params: {} }]);
  });
});

describe('a check names the field each column is read as, and shows the first rows', () => {
  it('for a CSV file: built-in names, the kept mapping, ?columns=, an unknown header, and the empty columns Excel adds', async () => {
    const { write } = await shop();
    expect((await write.post('/catalog/columns', { 'VK CHF': 'price' })).status).toBe(200);
    const lines = ['Strichcode;Bezeichnung;VK CHF;MWST;Notiz;Lager;;', ...Array.from({ length: 7 }, (_, i) => `761000000${1000 + i};Artikel ${i};1,${i}0;2.6;n${i};${i};;`)];
    const res = await sendFile(write, iconv.encode(lines.join('\r\n'), 'win1252'), `?dryRun=true&columns=${encodeURIComponent('Lager:')}`);
    expect(res.body.data.header).toEqual([
      { position: 1, name: 'Strichcode', field: 'barcode', source: 'name' },
      { position: 2, name: 'Bezeichnung', field: 'name', source: 'name' },
      { position: 3, name: 'VK CHF', field: 'price', source: 'kept' },
      { position: 4, name: 'MWST', field: 'taxCategory', source: 'name' },
      { position: 5, name: 'Notiz', field: null, source: null },
      { position: 6, name: 'Lager', field: '', source: 'columns' },
    ]);
    expect(res.body.data.preview).toHaveLength(5);
    expect(res.body.data.preview[0]).toEqual({ line: 2, cells: ['7610000001000', 'Artikel 0', '1,00', '2.6', 'n0', '0', '', ''] });
    expect(res.body.data.preview[4].line).toBe(6);
    expect(res.body.data.errors).toEqual([{ line: 1, column: 'Notiz', message: expect.stringMatching(/^"Notiz" is not a product field/), kind: 'header-unknown', params: { header: 'Notiz' } }]);
  });

  it('for a workbook, which a page cannot read itself', async () => {
    const { write } = await shop();
    const workbook = await writeXlsxFile([
      [{ value: 'Code-barres' }, { value: 'Désignation' }, { value: 'Prix' }, { value: 'TVA' }],
      [{ value: '7610000001056', type: String }, { value: 'Beurre 250 g' }, { value: 4.2, type: Number }, { value: 2.6, type: Number }],
    ]).toBuffer();
    const res = await write.request('POST', '/catalog/import?dryRun=true', { body: workbook, headers: { 'content-type': WORKBOOK_TYPE } });
    expect(res.body.data.header.map((c: { name: string; field: string }) => [c.name, c.field])).toEqual([
      ['Code-barres', 'barcode'],
      ['Désignation', 'name'],
      ['Prix', 'price'],
      ['TVA', 'taxCategory'],
    ]);
    expect(res.body.data.preview).toEqual([{ line: 2, cells: ['7610000001056', 'Beurre 250 g', '4.2', '2.6'] }]);
  });
});
