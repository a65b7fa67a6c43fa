import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { standardError, validationError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';
import { catalogReport } from './support/catalog-report.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;
let category: string;
let supplier: string;
let foreignCategory: string;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  category = (await write.post('/categories', { name: 'Brot' })).body.id;
  supplier = (await write.post('/suppliers', { name: 'Bäckerei Kern' })).body.id;
  const other = server.createOrg();
  foreignCategory = (await api(server.url, other.writeKey).post('/categories', { name: 'Fremd' })).body.id;
});
afterAll(async () => {
  await server.destroy();
});

const productCount = () => (server.sqlite().prepare('SELECT count(*) AS n FROM products WHERE org_id = ?').get(org.id) as { n: number }).n;
const BREAD = { name: 'Ruchbrot', price: 380, taxCategory: '2.6' };

describe('POST /products checks the category and supplier it names', () => {
  it('refuses a category id that does not exist, or is another organization\'s, and stores nothing; takes its own, also a soft-deleted one', async () => {
    const before = productCount();
    for (const id of ['nope', foreignCategory]) {
      const res = await write.post('/products', { ...BREAD, category: id });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(standardError(400, `category: no category ${JSON.stringify(id)} in this organization (GET /categories lists them)`));
    }
    const res = await write.post('/products', { ...BREAD, supplier: 'nope' });
    expect(res.body).toEqual(standardError(400, 'supplier: no supplier "nope" in this organization (GET /suppliers lists them)'));
    expect(productCount()).toBe(before);

    // Its own category and supplier, a soft-deleted category, and none at all are accepted.
    const old = (await write.post('/categories', { name: 'Alt' })).body.id;
    expect((await write.post(`/categories/${old}`, { deleted: true })).status).toBe(200);
    for (const body of [{ category, supplier }, { category: old }, { category: '' }]) {
      expect((await write.post('/products', { ...BREAD, ...body })).status).toBe(200);
    }
  });

  it('refuses an update to a category that does not exist and keeps the product as it was', async () => {
    const id = (await write.post('/products', { ...BREAD, category })).body.id;
    const res = await write.post(`/products/${id}`, { category: 'nope', price: 400 });
    expect(res.body).toEqual(standardError(400, 'category: no category "nope" in this organization (GET /categories lists them)'));
    expect((await read.get(`/products/${id}`)).body.data).toMatchObject({ category, price: 380 });
  });
});

describe('GET /products?store= names a store of the organization', () => {
  it('answers 400 in the validation shape for a store that does not exist, with or without q, barcode or updatedSince, and filters by one that exists', async () => {
    const expected = validationError({ store: ['no store "nope" in this organization (GET /stores lists them)'] });
    for (const query of ['store=nope', 'store=nope&q=brot', 'store=nope&barcode=7610000000011', `store=nope&updatedSince=${new Date().toISOString()}`]) {
      const res = await read.get(`/products?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body, query).toEqual(expected);
    }
    // A store that exists filters, also once soft-deleted.
    const store = (await write.post('/stores', { name: 'Filiale' })).body.id;
    expect((await read.get(`/products?store=${store}`)).status).toBe(200);
    expect((await write.post(`/stores/${store}`, { deleted: true })).status).toBe(200);
    expect((await read.get(`/products?store=${store}`)).status).toBe(200);
  });
});

describe('POST /catalog/import checks references like the API', () => {
  it('takes a category by id or by name, a supplier by name, and refuses an ambiguous name', async () => {
    const sendFile = (body: string) => write.request('POST', '/catalog/import?dryRun=true', { body, headers: { 'content-type': 'text/csv' } });
    const file = `name,price,taxCategory,category,supplier\nZopf,5,2.6,${category},Bäckerei Kern\nBürli,1,2.6,brot,\n`;
    expect((await sendFile(file)).body.data).toEqual(catalogReport({ created: 2 }));
    await write.post('/categories', { name: 'Brot' });
    expect((await sendFile(file)).body.data.errors).toEqual([
      { line: 3, column: 'category', message: '"brot" is the name of 2 categories; write the id of the one meant', kind: 'category-ambiguous', params: { value: 'brot', count: '2' } },
    ]);
  });
});
