import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, collectPages, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
});
afterAll(async () => {
  await server.destroy();
});

async function createMany(count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, (_, j) =>
        write.post('/products', { name: `${prefix} ${i + j}`, price: 100 + i + j, taxCategory: '8.1' }),
      ),
    );
    for (const res of batch) {
      expect(res.status).toBe(200);
      ids.push(res.body.id);
    }
  }
  return ids;
}

describe('GET /products limit', () => {
  it.each([
    ['0', 'Number must be at least 1'],
    ['5001', 'Number must be at most 5000'],
    ['-3', 'Number must be at least 1'],
    ['ten', 'must be a whole number (got "ten")'],
    ['2.5', 'must be a whole number (got "2.5")'],
  ])('refuses limit=%s in the validation shape', async (limit, message) => {
    const res = await read.get(`/products?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { formErrors: [], fieldErrors: { limit: [expect.stringContaining(message)] } } });
  });

  it('accepts 1 and 5000 and defaults to 100', async () => {
    expect((await read.get('/products?limit=1')).body.meta.limit).toBe(1);
    expect((await read.get('/products?limit=5000')).body.meta.limit).toBe(5000);
    expect((await read.get('/products')).body.meta.limit).toBe(100);
  });

  it('refuses offset without q and a cursor it did not issue', async () => {
    const offset = await read.get('/products?offset=10');
    expect(offset.status).toBe(400);
    expect(offset.body.error.fieldErrors.offset).toEqual(['offset is only allowed together with q']);
    const cursor = await read.get('/products?cursor=not-a-cursor!');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.fieldErrors.cursor[0]).toMatch(/pass meta.nextCursor/);
  });
});

describe('GET /products paging', () => {
  it('serves 1,000 products in pages of 100, each active one exactly once, with deletions in between', async () => {
    const ids = await createMany(1000, 'Page');
    const deletedEarly = ids.filter((_, i) => i % 7 === 0);
    for (const id of deletedEarly) expect((await write.delete(`/products/${id}`)).status).toBe(200);

    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    const deletedDuring = new Set<string>();
    do {
      const res = await read.get(`/products?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({
        total: res.body.data.length,
        returned: res.body.data.length,
        limit: 100,
        ...(res.body.meta.nextCursor ? { nextCursor: expect.any(String) } : {}),
      });
      seen.push(...res.body.data.map((p: { id: string }) => p.id));
      cursor = res.body.meta.nextCursor;
      pages += 1;
      if (pages === 3) {
        // Delete rows on both sides of the cursor while paging.
        for (const id of ids.filter((_, i) => i % 7 === 3).slice(0, 40)) {
          await write.delete(`/products/${id}`);
          deletedDuring.add(id);
        }
      }
    } while (cursor);

    expect(new Set(seen).size).toBe(seen.length);
    const expected = ids.filter((id) => !deletedEarly.includes(id));
    const stillActive = expected.filter((id) => !deletedDuring.has(id));
    for (const id of stillActive) expect(seen).toContain(id);
    for (const id of deletedEarly) expect(seen).not.toContain(id);
    expect(seen.length).toBeGreaterThanOrEqual(stillActive.length);
    expect(seen.length).toBeLessThanOrEqual(expected.length);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(stillActive.length / 100));
  });

  it('every page size visits every active product exactly once (property)', async () => {
    const all = (await collectPages<{ id: string }>(read, '/products?limit=5000')).items.map((p) => p.id);
    const oracle = [...all].sort();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 400 }), async (limit) => {
        const { items } = await collectPages<{ id: string }>(read, `/products?limit=${limit}`);
        expect(items.map((p) => p.id)).toEqual(oracle);
      }),
      { numRuns: 12 },
    );
  });

  it('ends with a page without nextCursor', async () => {
    const res = await read.get('/products?limit=5000');
    expect(res.body.meta.nextCursor).toBeUndefined();
  });
});
