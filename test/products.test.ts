import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { fullProduct } from './support/fixtures.js';
import { ISO, standardError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;


beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg(['barcode-aliases']);
  server.createCatalogReferences(org.id, { categories: ['cat-1'], suppliers: ['sup-1'] });
  other = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
});
afterAll(async () => {
  await server.destroy();
});

async function create(body: Record<string, unknown> = {}, client: Api = write): Promise<string> {
  const res = await client.post('/products', { name: 'Apfel', price: 100, taxCategory: '2.6', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

describe('authentication', () => {
  it('refuses a request without a key with 403 in the standard shape', async () => {
    const res = await api(server.url).get('/products');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Forbidden'));
  });

  it('refuses an unknown key and a malformed header', async () => {
    expect((await api(server.url, 'wk_not-a-real-key').get('/products')).status).toBe(403);
    const res = await api(server.url).request('GET', '/products', { headers: { authorization: org.readKey } });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Forbidden');
  });

  it('lets a read key read but not write', async () => {
    const id = await create();
    expect((await read.get(`/products/${id}`)).status).toBe(200);
    expect((await read.get('/products')).status).toBe(200);
    for (const res of [
      await read.post('/products', { name: 'x', price: 1, taxCategory: '0' }),
      await read.post(`/products/${id}`, { price: 5 }),
      await read.delete(`/products/${id}`),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
    expect((await read.get(`/products/${id}`)).body.data.price).toBe(100);
  });

  it('answers unknown routes with 404 in the standard shape', async () => {
    const res = await write.get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(standardError(404, /no such endpoint/));
    expect((await api(server.url).get('/../../etc/passwd')).status).toBe(404);
  });
});

describe('organization isolation', () => {
  it("answers 404 to another organization's key on read, update and delete", async () => {
    const id = await create({ name: 'Geheim' });
    const stranger = api(server.url, other.writeKey);
    for (const res of [
      await stranger.get(`/products/${id}`),
      await stranger.post(`/products/${id}`, { price: 1 }),
      await stranger.delete(`/products/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(standardError(404, `Product "${id}" not found`));
    }
    const unknown = await stranger.get('/products/doesnotexist00000000');
    expect(unknown.body.message).toBe('Product "doesnotexist00000000" not found');
    expect((await stranger.get('/products')).body.data).toEqual([]);
    expect((await read.get(`/products/${id}`)).body.data.name).toBe('Geheim');
  });
});

describe('POST /products', () => {
  it('stores every field with its type and answers { success, id }', async () => {
    const body = fullProduct({ barcodeAliases: [{ code: 'ALIAS-1', quantity: 6, price: 1000, label: 'Sixpack', externalId: 'x6' }] });
    const res = await write.post('/products', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const got = await read.get(`/products/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      data: {
        ...body,
        barcodeAliases: [{ code: 'alias-1', quantity: 6, price: 1000, label: 'Sixpack', externalId: 'x6' }],
        id: res.body.id,
        deleted: false,
        createdate: expect.stringMatching(ISO),
        lastupdate: expect.stringMatching(ISO),
        instance: org.id,
      },
    });
  });

  it('fills defaults: barcode = id, imageUrl "", no aliases, no store lists', async () => {
    const id = await create();
    const { data } = (await read.get(`/products/${id}`)).body;
    expect(data).toEqual({
      id,
      name: 'Apfel',
      price: 100,
      taxCategory: '2.6',
      barcode: id,
      imageUrl: '',
      deleted: false,
      createdate: data.createdate,
      lastupdate: data.createdate,
      instance: org.id,
    });
  });

  it('lowercases and trims the barcode; an empty one becomes the id', async () => {
    const a = await create({ barcode: ' AbC-123 ' });
    expect((await read.get(`/products/${a}`)).body.data.barcode).toBe('abc-123');
    const b = await create({ barcode: '' });
    expect((await read.get(`/products/${b}`)).body.data.barcode).toBe(b);
  });

  it('stores dates in UTC with milliseconds', async () => {
    const id = await create({ salePriceDateFrom: '2026-12-01T10:00:00+01:00', salePriceDateTo: '2026-12-02T10:00:00Z' });
    const { data } = (await read.get(`/products/${id}`)).body;
    expect(data.salePriceDateFrom).toBe('2026-12-01T09:00:00.000Z');
    expect(data.salePriceDateTo).toBe('2026-12-02T10:00:00.000Z');
  });

  it.each([
    ['name', { price: 1, taxCategory: '0' }, 'name: is required'],
    ['price', { name: 'x', taxCategory: '0' }, 'price: is required'],
    ['taxCategory', { name: 'x', price: 1 }, 'taxCategory: is required'],
  ])('requires %s', async (_field, body, message) => {
    const res = await write.post('/products', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });

  it.each([
    ['name', 12, /^name: /],
    ['name', '   ', /^name: must not be empty/],
    ['price', '100', /^price: must be a whole number of cents/],
    ['price', 1.5, /^price: must be a whole number of cents/],
    ['price', -1, /^price: must be 0 or more cents/],
    ['taxCategory', '7.7', /^taxCategory: must be one of/],
    ['taxCategory', 8.1, /^taxCategory: must be one of/],
    ['showOnScreen', 'yes', /^showOnScreen: /],
    ['salePriceDateFrom', 'tomorrow', /^salePriceDateFrom: must be an ISO 8601 date-time/],
    ['index', 2.5, /^index: must be a whole number/],
    ['margin', 'high', /^margin: /],
    ['depositProduct', -5, /^depositProduct: /],
    ['barcodeAliases', [{ quantity: 2 }], /^barcodeAliases\.0\.code: is required/],
    ['barcodeAliases', [{ code: 'x', quantity: 0 }], /^barcodeAliases\.0\.quantity: must be greater than 0/],
  ])('refuses %s = %j with a message naming the field', async (field, value, message) => {
    const res = await write.post('/products', { name: 'x', price: 1, taxCategory: '0', [field]: value });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
  });

  it.each(['id', 'deleted', 'createdate', 'lastupdate', 'instance', 'allowStore', 'hideStore', 'colour'])(
    'refuses the unknown or read-only field %s',
    async (field) => {
      const res = await write.post('/products', { name: 'x', price: 1, taxCategory: '0', [field]: 'v' });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`${field}: is not a writable field (unknown or read-only)`);
    },
  );

  it('refuses a sale window that ends before it starts', async () => {
    const res = await write.post('/products', {
      name: 'x',
      price: 1,
      taxCategory: '0',
      salePriceDateFrom: '2026-12-02T00:00:00Z',
      salePriceDateTo: '2026-12-01T00:00:00Z',
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/salePriceDateTo .* must not be before salePriceDateFrom/);
  });

  it('answers malformed JSON, non-object bodies and missing bodies with 400, never 500', async () => {
    const bad = await write.request('POST', '/products', { body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(standardError(400, /^Malformed JSON body/));
    const array = await write.post('/products', [1, 2]);
    expect(array.status).toBe(400);
    expect(array.body.message).toBe('Request body must be a JSON object');
    const missing = await write.request('POST', '/products', { body: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/Request body is missing/);
  });

  it('answers a body over the limit with 413', async () => {
    const res = await write.post('/products', { name: 'x', price: 1, taxCategory: '0', description: 'a'.repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(standardError(413, /larger than the limit/));
  });
});

describe('barcodeAliases and the barcode-aliases feature', () => {
  it('answers 403 Feature not available without the feature, on create and update', async () => {
    const plain = api(server.url, other.writeKey);
    const res = await plain.post('/products', { name: 'x', price: 1, taxCategory: '0', barcodeAliases: [{ code: 'a' }] });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Feature not available'));
    const id = (await plain.post('/products', { name: 'x', price: 1, taxCategory: '0' })).body.id;
    expect((await plain.post(`/products/${id}`, { barcodeAliases: [] })).body.message).toBe('Feature not available');
  });

  it('lowercases codes, defaults quantity to 1 and does not persist an empty array', async () => {
    const id = await create({ barcodeAliases: [{ code: 'SIX-PACK' }] });
    expect((await read.get(`/products/${id}`)).body.data.barcodeAliases).toEqual([{ code: 'six-pack', quantity: 1 }]);
    const none = await create({ barcodeAliases: [] });
    expect((await read.get(`/products/${none}`)).body.data).not.toHaveProperty('barcodeAliases');
  });

  it('removes the aliases with an empty array on update', async () => {
    const id = await create({ barcodeAliases: [{ code: 'gone-1' }] });
    expect((await write.post(`/products/${id}`, { barcodeAliases: [] })).status).toBe(200);
    expect((await read.get(`/products/${id}`)).body.data).not.toHaveProperty('barcodeAliases');
    expect((await read.get('/products?barcode=gone-1')).body.data).toEqual([]);
  });
});

describe('POST /products/{id}', () => {
  it('changes only the fields sent and bumps lastupdate', async () => {
    const id = await create(fullProduct({ barcode: 'upd-1' }));
    const before = (await read.get(`/products/${id}`)).body.data;
    await new Promise((r) => setTimeout(r, 5));
    const res = await write.post(`/products/${id}`, { price: 250, saleStop: true, barcode: 'UPD-2' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const after = (await read.get(`/products/${id}`)).body.data;
    expect(after).toEqual({ ...before, price: 250, saleStop: true, barcode: 'upd-2', lastupdate: expect.stringMatching(ISO) });
    expect(after.lastupdate > before.lastupdate).toBe(true);
  });

  it('keeps imageUrl as given and clears it with an empty string', async () => {
    const id = await create({ imageUrl: 'https://cdn.example.com/a.png' });
    await write.post(`/products/${id}`, { imageUrl: '' });
    expect((await read.get(`/products/${id}`)).body.data.imageUrl).toBe('');
  });

  it('validates like create and answers 404 for an unknown id', async () => {
    const id = await create();
    const res = await write.post(`/products/${id}`, { price: 'free', deleted: true });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/price: .*; deleted: is not a writable field/);
    expect((await write.post('/products/unknown0000000000000', { price: 1 })).status).toBe(404);
  });
});

describe('DELETE /products/{id}', () => {
  it('soft-deletes: the product leaves lists, stays readable with deleted: true', async () => {
    const id = await create({ barcode: 'del-me' });
    const res = await write.delete(`/products/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect((await read.get(`/products/${id}`)).body.data.deleted).toBe(true);
    expect((await read.get('/products?barcode=del-me')).body.data).toEqual([]);
    const all = await collectPages(read, '/products?limit=5000');
    expect(all.items.map((p) => p.id)).not.toContain(id);
    const row = server.sqlite().prepare('SELECT deleted FROM products WHERE id = ?').get(id) as { deleted: number };
    expect(row.deleted).toBe(1);
  });

  it('answers 404 for an unknown id', async () => {
    const res = await write.delete('/products/unknown0000000000000');
    expect(res.status).toBe(404);
  });
});

describe('GET /products?barcode=', () => {
  it('finds products by barcode and by alias code, case-insensitively, in the list shape', async () => {
    const a = await create({ barcode: '4001234567890' });
    const b = await create({ barcode: 'other-1', barcodeAliases: [{ code: '4001234567890', quantity: 6 }] });
    await create({ barcode: '4001234567891' });
    const res = await read.get('/products?barcode=4001234567890');
    expect(res.status).toBe(200);
    expect(res.body.data.map((p: { id: string }) => p.id).sort()).toEqual([a, b].sort());
    expect(res.body.meta).toEqual({ total: 2, returned: 2, limit: 100 });
    const upper = await create({ barcode: 'mixed-case-code' });
    expect((await read.get('/products?barcode=MIXED-Case-CODE')).body.data.map((p: { id: string }) => p.id)).toEqual([upper]);
    expect((await read.get('/products?barcode=nothing-here')).body).toEqual({
      data: [],
      meta: { total: 0, returned: 0, limit: 100 },
    });
  });

  it('pages a shared code with cursors: each match once, also one matching by barcode and alias', async () => {
    const code = 'shared-code-1';
    const ids = [
      ...(await Promise.all([1, 2, 3, 4].map(() => create({ barcode: code })))),
      ...(await Promise.all([1, 2, 3].map(() => create({ barcodeAliases: [{ code }] })))),
      await create({ barcode: code, barcodeAliases: [{ code: code.toUpperCase() }] }),
    ];
    await write.delete(`/products/${ids[0]}`);
    const { items, pages } = await collectPages<{ id: string }>(read, `/products?barcode=${code}&limit=2`);
    expect(items.map((p) => p.id)).toEqual(ids.slice(1).sort());
    expect(pages).toBe(4);
  });
});
