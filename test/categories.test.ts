import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { fullCategory, tableReader } from './support/catalog.js';
import { ISO, byUtf8, standardError, validationError } from './support/shapes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

type Reader = ReturnType<typeof tableReader>;

let server: TestServer;
let org: TestOrg;
let other: TestOrg;
let write: Api;
let read: Api;
let row: Reader['row'];
let categoryCount: Reader['count'];
let outboxOf: Reader['outboxOf'];

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  other = server.createOrg();
  server.createStores(org.id, ['store-a', 'store-b', 'store-c', 'store-x', 'store-y', 's1', 's2', 'bahnhof', 'altstadt']);
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
  ({ row, count: categoryCount, outboxOf } = tableReader(server.sqlite(), 'categories'));
});
afterAll(async () => {
  await server.destroy();
});

async function create(body: Record<string, unknown> = {}, client: Api = write): Promise<string> {
  const res = await client.post('/categories', { name: 'Kategorie', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((item) => item.id);

describe('authentication', () => {
  it('refuses a request without a key', async () => {
    const res = await api(server.url).get('/categories');
    expect(res.status).toBe(403);
    expect(res.body).toEqual(standardError(403, 'Forbidden'));
  });

  it('lets a read key read but not create or update', async () => {
    const id = await create({ name: 'Nur lesen' });
    expect((await read.get('/categories')).status).toBe(200);
    expect((await read.get(`/categories/${id}`)).status).toBe(200);
    const before = categoryCount();
    for (const res of [await read.post('/categories', { name: 'x' }), await read.post(`/categories/${id}`, { deleted: true })]) {
      expect(res.status).toBe(403);
      expect(res.body).toEqual(standardError(403, 'Forbidden'));
    }
    expect(categoryCount()).toBe(before);
    expect(row(id)?.deleted).toBe(0);
  });
});

describe('POST /categories', () => {
  it('stores every field with its type and answers { success, id }', async () => {
    const body = fullCategory();
    const res = await write.post('/categories', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: expect.stringMatching(/^[A-Za-z0-9]{20}$/) });
    const id = res.body.id as string;
    const got = await read.get(`/categories/${id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: { ...body, id, deleted: false, createdate: expect.stringMatching(ISO) } });
    expect(row(id)).toMatchObject({
      org_id: org.id,
      idx: 4,
      show_on_screen: 1,
      hide_store: '["store-b"]',
      allow_store: '["store-a","store-c"]',
      deleted: 0,
    });
    expect(outboxOf(id)).toEqual([{ resource: 'category', operation: 'create', body }]);
  });

  it('needs only a name; empty store lists are not stored; duplicate store ids are dropped', async () => {
    const id = await create({ name: ' Brot ', hideStore: [], allowStore: ['s1', 's1', 's2'] });
    const { data } = (await read.get(`/categories/${id}`)).body;
    expect(data).toEqual({ id, name: 'Brot', allowStore: ['s1', 's2'], deleted: false, createdate: data.createdate });
    expect(row(id)).toMatchObject({ hide_store: null, allow_store: '["s1","s2"]' });
  });

  it.each([
    [{}, 'name: is required'],
    [{ name: '' }, 'name: must not be empty'],
    [{ name: 'x', index: 2.5 }, 'index: must be a whole number (got 2.5)'],
    [{ name: 'x', showOnScreen: 1 }, 'showOnScreen: Invalid input: expected boolean, received number (got 1)'],
    [{ name: 'x', marginMinPercent: '5' }, 'marginMinPercent: Invalid input: expected number, received string (got "5")'],
    [{ name: 'x', hideStore: 'store-a' }, 'hideStore: Invalid input: expected array, received string (got "store-a")'],
    [{ name: 'x', allowStore: [''] }, 'allowStore.0: Too small: expected string to have >=1 characters'],
    [{ name: 'x', allowStore: ['a', 7] }, 'allowStore.1: Invalid input: expected string, received number (got 7)'],
    [{ name: 'x', deleted: false }, 'deleted: is not a writable field (unknown or read-only)'],
    [{ name: 'x', id: 'mine' }, 'id: is not a writable field (unknown or read-only)'],
    [{ name: 'x', parent: 'y' }, 'parent: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const before = categoryCount();
    const res = await write.post('/categories', body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect(categoryCount()).toBe(before);
  });
});

describe('store references', () => {
  it('refuses a store list naming a store the organization does not have, on create and on update', async () => {
    const foreign = 'store-of-another-org';
    server.createStores(other.id, [foreign]);
    const before = categoryCount();
    for (const [body, message] of [
      [{ name: 'x', hideStore: ['store-a', 'nowhere'] }, 'hideStore: no store "nowhere" in this organization'],
      [{ name: 'x', allowStore: [foreign] }, `allowStore: no store "${foreign}" in this organization`],
    ] as const) {
      expect((await write.post('/categories', body)).body).toEqual(standardError(400, message));
    }
    expect(categoryCount()).toBe(before);
    const id = await create({ hideStore: ['store-a'] });
    const res = await write.post(`/categories/${id}`, { allowStore: ['store-b'], hideStore: ['gone'] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, 'hideStore: no store "gone" in this organization'));
    expect((await read.get(`/categories/${id}`)).body.data.hideStore).toEqual(['store-a']);
    expect(outboxOf(id)).toHaveLength(1);
  });

  it('accepts a soft-deleted store: lists made while it was open stay valid', async () => {
    expect((await write.post('/stores/store-y', { deleted: true })).status).toBe(200);
    expect((await write.post('/categories', { name: 'x', hideStore: ['store-y'] })).status).toBe(200);
    expect((await write.post('/stores/store-y', { deleted: false })).status).toBe(200);
  });
});

describe('GET /categories/{categoryId}', () => {
  it("answers 404 for an unknown id and for another organization's id alike", async () => {
    const id = await create({ name: 'Geheim' });
    expect((await api(server.url, other.readKey).get(`/categories/${id}`)).body).toEqual(
      standardError(404, `Category "${id}" not found`),
    );
    const unknown = await read.get('/categories/doesnotexist00000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(standardError(404, 'Category "doesnotexist00000000" not found'));
  });
});

describe('POST /categories/{categoryId}', () => {
  it('changes only the fields sent and records the patch in the outbox', async () => {
    const id = await create(fullCategory());
    const before = (await read.get(`/categories/${id}`)).body.data;
    const patch = { name: 'Softdrinks', index: 1, marginMaxPercent: 40, hideStore: ['store-x', 'store-y'] };
    expect((await write.post(`/categories/${id}`, patch)).body).toEqual({ success: true });
    expect((await read.get(`/categories/${id}`)).body.data).toEqual({ ...before, ...patch });
    expect(outboxOf(id).at(-1)).toEqual({ resource: 'category', operation: 'update', body: patch });
  });

  it('removes a store list sent as an empty array', async () => {
    const id = await create(fullCategory());
    await write.post(`/categories/${id}`, { hideStore: [] });
    const { data } = (await read.get(`/categories/${id}`)).body;
    expect(data).not.toHaveProperty('hideStore');
    expect(data.allowStore).toEqual(['store-a', 'store-c']);
    await write.post(`/categories/${id}`, { allowStore: [] });
    expect((await read.get(`/categories/${id}`)).body.data).not.toHaveProperty('allowStore');
    expect(row(id)).toMatchObject({ hide_store: null, allow_store: null });
    expect(outboxOf(id).slice(1).map((e) => e.body)).toEqual([{ hideStore: [] }, { allowStore: [] }]);
  });

  it('soft-deletes with deleted: true: readable with deleted true, gone from the list; false restores', async () => {
    const id = await create({ name: 'Saisonal' });
    expect((await write.post(`/categories/${id}`, { deleted: true })).body).toEqual({ success: true });
    expect((await read.get(`/categories/${id}`)).body.data).toMatchObject({ id, deleted: true });
    expect(row(id)?.deleted).toBe(1);
    expect((await collectPages(read, '/categories?limit=5000')).items.map((c: { id: string }) => c.id)).not.toContain(id);
    await write.post(`/categories/${id}`, { deleted: false });
    expect((await collectPages(read, '/categories?limit=5000')).items.map((c: { id: string }) => c.id)).toContain(id);
  });

  it('accepts an empty body without writing anything', async () => {
    const id = await create();
    expect((await write.post(`/categories/${id}`, {})).body).toEqual({ success: true });
    expect(outboxOf(id)).toHaveLength(1);
  });

  it.each([
    [{ name: '  ' }, 'name: must not be empty'],
    [{ hideStore: null }, 'hideStore: Invalid input: expected array, received null (got null)'],
    [{ deleted: 'true' }, 'deleted: Invalid input: expected boolean, received string (got "true")'],
    [{ createdate: '2026-01-01T00:00:00.000Z' }, 'createdate: is not a writable field (unknown or read-only)'],
  ])('refuses %j with a 400 and changes nothing', async (patch, message) => {
    const id = await create({ name: 'Fest', hideStore: ['s1'] });
    const res = await write.post(`/categories/${id}`, patch);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(standardError(400, message));
    expect((await read.get(`/categories/${id}`)).body.data).toMatchObject({ name: 'Fest', hideStore: ['s1'], deleted: false });
    expect(outboxOf(id)).toHaveLength(1);
  });

  it("answers 404 for an unknown id and for another organization's id, changing nothing", async () => {
    const id = await create({ name: 'Unberührt' });
    const res = await api(server.url, other.writeKey).post(`/categories/${id}`, { deleted: true });
    expect(res.body).toEqual(standardError(404, `Category "${id}" not found`));
    expect((await write.post('/categories/doesnotexist00000000', { name: 'x' })).status).toBe(404);
    expect(row(id)?.deleted).toBe(0);
    expect(outboxOf(id)).toHaveLength(1);
  });
});

describe('category store lists and the product store filter', () => {
  it("decides GET /products?store= and the product's read-only allowStore/hideStore", async () => {
    const category = await create({ name: 'Tabak' });
    const product = (await write.post('/products', { name: 'Zigarren', price: 1500, taxCategory: '8.1', category })).body.id as string;
    const visibleIn = async (store: string) => ids(await read.get(`/products?store=${store}&limit=5000`)).includes(product);
    const productLists = async () => {
      const { data } = (await read.get(`/products/${product}`)).body;
      return { allowStore: data.allowStore, hideStore: data.hideStore };
    };

    expect(await visibleIn('bahnhof')).toBe(true);
    expect(await productLists()).toEqual({ allowStore: undefined, hideStore: undefined });

    await write.post(`/categories/${category}`, { hideStore: ['bahnhof'] });
    expect(await visibleIn('bahnhof')).toBe(false);
    expect(await visibleIn('altstadt')).toBe(true);
    expect(await productLists()).toEqual({ allowStore: undefined, hideStore: ['bahnhof'] });

    await write.post(`/categories/${category}`, { hideStore: [], allowStore: ['altstadt'] });
    expect(await visibleIn('bahnhof')).toBe(false);
    expect(await visibleIn('altstadt')).toBe(true);
    expect(await productLists()).toEqual({ allowStore: ['altstadt'], hideStore: undefined });

    await write.post(`/categories/${category}`, { allowStore: [] });
    expect(await visibleIn('bahnhof')).toBe(true);
    expect(await productLists()).toEqual({ allowStore: undefined, hideStore: undefined });
  });
});

describe('GET /categories', () => {
  it.each([
    ['limit=0', { limit: [expect.stringContaining('Number must be at least 1')] }],
    ['limit=5001', { limit: [expect.stringContaining('Number must be at most 5000')] }],
    ['limit=x', { limit: [expect.stringContaining('must be a whole number (got "x")')] }],
    ['cursor=not-a-cursor!', { cursor: [expect.stringContaining('is not a cursor from this server')] }],
  ])('refuses %s in the validation shape', async (query, fieldErrors) => {
    const res = await read.get(`/categories?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(validationError(fieldErrors));
  });

  it('pages active categories of the organization in id order with nextCursor', async () => {
    const fresh = server.createOrg();
    const client = api(server.url, fresh.writeKey);
    const created = [await create({ name: 'A' }, client), await create({ name: 'B' }, client), await create({ name: 'C' }, client)];
    const gone = await create({ name: 'D' }, client);
    await client.post(`/categories/${gone}`, { deleted: true });
    await create({ name: 'Fremd' }, api(server.url, other.writeKey));
    const sorted = [...created].sort(byUtf8);

    const first = await client.get('/categories?limit=2');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      data: sorted.slice(0, 2).map((id) => ({ id, name: expect.any(String), deleted: false, createdate: expect.stringMatching(ISO) })),
      meta: { total: 2, returned: 2, limit: 2, nextCursor: expect.any(String) },
    });
    const second = await client.get(`/categories?limit=2&cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expect(ids(second)).toEqual(sorted.slice(2));
    expect(second.body.meta).toEqual({ total: 1, returned: 1, limit: 2 });
    expect((await client.get('/categories')).body.meta).toEqual({ total: 3, returned: 3, limit: 100 });
  });

  it('serves every active category exactly once in id order, for any deletions and page size', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { maxLength: 14 }), fc.integer({ min: 1, max: 5 }), async (deletedFlags, limit) => {
        const fresh = server.createOrg();
        const client = api(server.url, fresh.writeKey);
        const active: string[] = [];
        for (const deleted of deletedFlags) {
          const id = await create({}, client);
          if (deleted) await client.post(`/categories/${id}`, { deleted: true });
          else active.push(id);
        }
        const { items, pages } = await collectPages<{ id: string }>(client, `/categories?limit=${limit}`);
        expect(items.map((c) => c.id)).toEqual(active.sort(byUtf8));
        expect(pages).toBe(Math.max(1, Math.ceil(active.length / limit)));
      }),
      { numRuns: 15 },
    );
  });

  it('serves every category that existed before paging exactly once while others are added', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1, max: 4 }), async (count, limit) => {
        const fresh = server.createOrg();
        const client = api(server.url, fresh.writeKey);
        const existing: string[] = [];
        for (let i = 0; i < count; i += 1) existing.push(await create({}, client));
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          expect(seen.length).toBeLessThan(1000);
          const res = await client.get(`/categories?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
          seen.push(...ids(res));
          cursor = res.body.meta.nextCursor;
          await create({}, client);
        } while (cursor);
        expect(new Set(seen).size).toBe(seen.length);
        expect([...seen].sort(byUtf8)).toEqual(seen);
        for (const id of existing) expect(seen).toContain(id);
      }),
      { numRuns: 15 },
    );
  });
});
