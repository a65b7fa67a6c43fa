import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { catalogReport } from './support/catalog-report.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.destroy();
});

/** A fresh organization with a category and a supplier, and its clients. */
async function shop() {
  const org: TestOrg = server.createOrg();
  const write = api(server.url, org.writeKey);
  const read = api(server.url, org.readKey);
  const dairy = (await write.post('/categories', { name: 'Milchprodukte' })).body.id as string;
  const bakery = (await write.post('/categories', { name: 'Bäckerei' })).body.id as string;
  const farm = (await write.post('/suppliers', { name: 'Hof Sonnenberg' })).body.id as string;
  return { org, write, read, dairy, bakery, farm };
}

const sendFile = (client: Api, body: string | Buffer, query = '', type = 'text/csv') =>
  client.request('POST', `/catalog/import${query}`, { body, headers: { 'content-type': type } });

const products = async (client: Api) => (await collectPages(client, '/products?limit=5000')).items;

/** What the database holds of an organization: products and their outbox entries. */
function stored(orgId: string) {
  const db = server.sqlite();
  return {
    products: db.prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(orgId) as { n: number },
    outbox: db.prepare("SELECT count(*) AS n FROM outbox WHERE org_id = ? AND resource = 'product'").get(orgId) as { n: number },
  };
}

const FILE = [
  'externalId,barcode,name,price,taxCategory,category,depositProduct,description',
  'A-1,7610000000011,Vollmilch 1l,1.95,2.6,Milchprodukte,0.30,Frisch vom Hof',
  'A-2,7610000000028,Zopf 500g,"4,50",2.6,Bäckerei,,',
  ',7610000000035,Bergkäse,12,2.6,Milchprodukte,,"Würzig, 12 Monate"',
].join('\r\n');

describe('POST /catalog/import', () => {
  it('checks a file with dryRun=true and writes nothing, then imports it for real', async () => {
    const { org, write, read, dairy, bakery } = await shop();
    const checked = await sendFile(write, FILE, '?dryRun=true');
    expect(checked.status).toBe(200);
    expect(checked.body).toEqual({ data: catalogReport({ created: 3, updated: 0, unchanged: 0 }) });
    expect(stored(org.id)).toEqual({ products: { n: 0 }, outbox: { n: 0 } });

    const imported = await sendFile(write, FILE);
    expect(imported.status).toBe(200);
    expect(imported.body).toEqual({ data: catalogReport({ created: 3, updated: 0, unchanged: 0 }) });
    const byName = Object.fromEntries((await products(read)).map((p) => [p.name, p]));
    expect(byName['Vollmilch 1l']).toMatchObject({ externalId: 'A-1', barcode: '7610000000011', price: 195, taxCategory: '2.6', category: dairy, depositProduct: 30, description: 'Frisch vom Hof' });
    expect(byName['Zopf 500g']).toMatchObject({ externalId: 'A-2', price: 450, category: bakery });
    expect(byName['Zopf 500g'].depositProduct).toBeUndefined();
    expect(byName['Bergkäse']).toMatchObject({ price: 1200, description: 'Würzig, 12 Monate' });
    expect(stored(org.id)).toEqual({ products: { n: 3 }, outbox: { n: 3 } });

    // The same file again changes nothing; a changed price updates the product its externalId names.
    expect((await sendFile(write, FILE)).body.data).toEqual(catalogReport({ created: 0, updated: 0, unchanged: 3 }));
    const dearer = FILE.replace('Vollmilch 1l,1.95', 'Vollmilch 1l,2.05');
    const priceChange = catalogReport({ created: 0, updated: 1, unchanged: 2, changes: [{ line: 2, field: 'price', from: '1.95', to: '2.05' }] });
    expect((await sendFile(write, dearer, '?dryRun=true')).body.data).toEqual(priceChange);
    expect((await sendFile(write, dearer)).body.data).toEqual(priceChange);
    expect((await products(read)).find((p) => p.externalId === 'A-1').price).toBe(205);
    expect(stored(org.id)).toEqual({ products: { n: 3 }, outbox: { n: 4 } });
  });

  it('matches a row without externalId by its barcode', async () => {
    const { write, read } = await shop();
    const id = (await write.post('/products', { name: 'Butter', price: 300, taxCategory: '2.6', barcode: '7610000000042' })).body.id;
    const res = await sendFile(write, 'barcode;name;price\n7610000000042;Butter 250g;3,20\n');
    expect(res.body.data).toEqual(
      catalogReport({
        created: 0,
        updated: 1,
        unchanged: 0,
        changes: [
          { line: 2, field: 'name', from: 'Butter', to: 'Butter 250g' },
          { line: 2, field: 'price', from: '3.00', to: '3.20' },
        ],
      }),
    );
    expect((await read.get(`/products/${id}`)).body.data).toMatchObject({ name: 'Butter 250g', price: 320, taxCategory: '2.6' });
  });

  it('reads Windows-1252 with ; and prices written 1,95, umlauts intact', async () => {
    const { write, read, dairy } = await shop();
    const text = 'name;price;taxCategory;category;barcode\r\nMüesli Bärner Art;1,95;2,6;Milchprodukte;7610000000059\r\nCrème fraîche;3,10;2.6;Milchprodukte;7610000000066\r\n';
    const bytes = iconv.encode(text, 'win1252');
    expect(bytes.includes(Buffer.from('ü', 'utf8'))).toBe(false);
    const res = await sendFile(write, bytes);
    expect(res.body).toEqual({ data: catalogReport({ created: 2, updated: 0, unchanged: 0 }) });
    const list = await products(read);
    expect(list.map((p) => [p.name, p.price, p.taxCategory, p.category]).sort()).toEqual([
      ['Crème fraîche', 310, '2.6', dairy],
      ['Müesli Bärner Art', 195, '2.6', dairy],
    ]);
  });

  it('reads UTF-8 with a byte order mark', async () => {
    const { write, read } = await shop();
    const res = await sendFile(write, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('name,price,taxCategory\nGrüntee,4.90,2.6\n')]));
    expect(res.body.data).toEqual(catalogReport({ created: 1, updated: 0, unchanged: 0 }));
    expect((await products(read)).map((p) => p.name)).toEqual(['Grüntee']);
  });
});

describe('POST /catalog/import of a large file', () => {
  it('writes all of it in one transaction while other writes and reads go on, and keeps theirs', async () => {
    const { org, write, read } = await shop();
    const rows = Array.from({ length: 3000 }, (_, i) => `X-${i},Artikel ${i},${1 + (i % 9)}.50,8.1`);
    const file = ['externalId,name,price,taxCategory', ...rows].join('\n');
    const importing = sendFile(write, file);
    // A sale's catalog edit and a scanner's lookup while the import runs.
    const edits = Array.from({ length: 5 }, (_, i) => write.post('/products', { name: `Kasse ${i}`, price: 100, taxCategory: '2.6', barcode: `k-${i}` }));
    const lookups = Array.from({ length: 5 }, (_, i) => read.get(`/products?barcode=k-${i}`));
    const imported = await importing;
    expect(imported.body).toEqual({ data: catalogReport({ created: 3000, updated: 0, unchanged: 0 }) });
    for (const edit of await Promise.all(edits)) expect(edit.status).toBe(200);
    for (const lookup of await Promise.all(lookups)) expect(lookup.status).toBe(200);
    expect(stored(org.id)).toEqual({ products: { n: 3005 }, outbox: { n: 3005 } });
    expect((await read.get('/products?q=artikel%202999')).body.data[0].name).toBe('Artikel 2999');
  });
});

describe('GET /catalog/export', () => {
  it('exports the columns the import takes; export, import unchanged, export gives the same file', async () => {
    const { write, read, farm } = await shop();
    expect((await sendFile(write, FILE)).status).toBe(200);
    await write.post('/products', {
      name: 'Apfelwein "Spezial"',
      price: 1290,
      taxCategory: '8.1',
      supplier: farm,
      ageRestriction: true,
      minimumAge: 16,
      salePrice: 990,
      salePriceDateFrom: '2026-11-01T00:00:00.000Z',
      salePriceDateTo: '2026-11-30T23:59:59.000Z',
      saleStop: false,
      showOnScreen: true,
      index: 3,
    });
    const first = await read.get('/catalog/export');
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = first.body as string;
    // Swiss Excel opens it into columns: a byte order mark, `;` between cells, barcodes of digits kept as text.
    expect(text.split('\r\n')[0]).toBe(
      'id;externalId;barcode;name;price;taxCategory;category;supplier;depositProduct;depositProductLabel;salePrice;salePriceDateFrom;salePriceDateTo;costPrice;ageRestriction;minimumAge;showOnScreen;showOnScale;saleStop;deactivated;openInput;index;description;declarations;imageUrl',
    );
    const milk = (await products(read)).find((p) => p.externalId === 'A-1');
    expect(text).toContain(`${milk.id};A-1;="7610000000011";Vollmilch 1l;1.95;2.6;Milchprodukte;;0.30;`);
    expect(text).toContain('"Apfelwein ""Spezial""";12.90;8.1;;Hof Sonnenberg;;;9.90;2026-11-01T00:00:00.000Z;2026-11-30T23:59:59.000Z;;true;16;true;;false;;;3;');

    const again = await sendFile(write, first.body);
    expect(again.body).toEqual({ data: catalogReport({ created: 0, updated: 0, unchanged: 4 }) });
    expect((await read.get('/catalog/export')).body).toBe(text);
  });

  it('writes text a spreadsheet would run as a formula as text, and reads it back as it was', async () => {
    const { write, read } = await shop();
    const names = ['=HYPERLINK("http://evil.example","Rabatt")', '+41 26 000 00 00', '-20% Aktion', '@SUM(A1)', "'=already marked", "'quoted"];
    const category = (await write.post('/categories', { name: '=cmd|calc' })).body.id as string;
    for (const [i, name] of names.entries()) {
      expect((await write.post('/products', { name, externalId: `F-${i}`, price: 100, taxCategory: '2.6', category, description: '=1+1' })).status).toBe(200);
    }
    const text = (await read.get('/catalog/export')).body as string;
    const rows = text.split('\r\n').slice(1).filter((line) => line !== '');
    expect(rows).toHaveLength(names.length);
    for (const row of rows) expect(row).not.toMatch(/(^|;)"?[=+\-@]/);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""Rabatt"")"`);
    expect(text).toContain("''=already marked");
    expect(text).toContain(";'quoted;");
    expect(text).toContain("'=cmd|calc");

    const again = await sendFile(write, text);
    expect(again.body).toEqual({ data: catalogReport({ unchanged: names.length }) });
    const stored = await products(read);
    expect(stored.map((p: { name: string }) => p.name).sort()).toEqual([...names].sort());
    expect(stored.every((p: { description: string; category: string }) => p.description === '=1+1' && p.category === category)).toBe(true);
  });
});
