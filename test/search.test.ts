import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isVisibleInStore, type StoreLists } from '../main/rules/store-filter.js';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;

beforeAll(async () => {
  server = await startTestServer();
  org = server.createOrg(['barcode-aliases']);
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
});
afterAll(async () => {
  await server.destroy();
});

async function create(client: Api, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/products', { price: 100, taxCategory: '2.6', ...body });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function update(id: string, body: Record<string, unknown>): Promise<void> {
  expect((await write.post(`/products/${id}`, body)).status).toBe(200);
}

const search = (query: string) => read.get(`/products?${query}`);
const q = (text: string) => search(`q=${encodeURIComponent(text)}`);
const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id);
const readAll = async (ids: string[]) => Promise.all(ids.map(async (id) => (await read.get(`/products/${id}`)).body.data));

describe('GET /products?q= refuses bad input', () => {
  it('asks for a key like every endpoint', async () => {
    const res = await api(server.url).get('/products?q=milk');
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'Forbidden', timestamp: expect.any(String), path: '/api/v1/products?q=milk' });
  });

  it.each([
    ['q=milk&offset=10001', 'offset', 'Number must be at most 10000'],
    ['q=milk&offset=-1', 'offset', 'Number must be at least 0'],
    ['q=milk&offset=1.5', 'offset', 'must be a whole number (got "1.5")'],
    ['q=milk&limit=0', 'limit', 'Number must be at least 1'],
    ['q=milk&limit=5001', 'limit', 'Number must be at most 5000'],
    ['q=milk&cursor=abc', 'cursor', 'cursor is only allowed without q; use offset to page a search'],
    ['q=%20%20', 'q', 'must not be empty'],
    ['offset=5', 'offset', 'offset is only allowed together with q'],
  ])('answers %s with 400 in the validation shape', async (query, field, message) => {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { formErrors: [], fieldErrors: { [field]: [message] } } });
  });
});

describe('GET /products?q= matches what a cashier types', () => {
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ids.cafe = await create(write, { name: 'Café Crème Bohnen 500g', description: 'Kräftig geröstet', declarations: 'Arabica' });
    ids.muesli = await create(write, {
      name: 'Bio Müesli Beeren 750g',
      barcode: '7610000000017',
      externalId: 'ART-0042',
      barcodeAliases: [{ code: 'PACK-6-MUESLI', quantity: 6 }],
    });
    ids.chocolate = await create(write, {
      name: 'Schokolade Zartbitter 100g',
      description: 'Edle Tafel aus Ecuador',
      declarations: 'Kakaomasse, Zucker, Kakaobutter',
    });
    ids.cocoaButter = await create(write, { name: 'Kakaobutter Hautcreme' });
    ids.cheese = await create(write, { name: 'Bergkäse Müller rezent' });
    ids.brulee = await create(write, { name: 'Crème brûlée Dessert' });
    ids.milk = await create(write, { name: 'Vollmilch UHT 1l', description: 'Pastmilch aus dem Emmental' });
    const gone = await create(write, { name: 'Schokolade Milch 100g', barcode: '7610000000099' });
    expect((await write.delete(`/products/${gone}`)).status).toBe(200);
  });

  it('finds a name by the start of a word, with the whole product and the search meta', async () => {
    const res = await q('scho');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: await readAll([ids.chocolate!]), meta: { total: 1, returned: 1, limit: 100, offset: 0 } });
  });

  it.each([
    ['schokolde', 'chocolate'],
    ['zartbiter', 'chocolate'],
    ['vollmich', 'milk'],
    ['berkäse', 'cheese'],
  ])('tolerates the typo in %s', async (text, product) => {
    expect(idsOf(await q(text))).toEqual([ids[product]]);
  });

  it.each([
    ['cafe', 'cafe'],
    ['CAFÉ', 'cafe'],
    ['muesli', 'muesli'],
    ['Müesli', 'muesli'],
    ['bergkase', 'cheese'],
    ['bergkaese', 'cheese'],
    ['mueller', 'cheese'],
    ['creme brulee', 'brulee'],
    ['crème brûlée', 'brulee'],
    ['gerostet', 'cafe'],
  ])('matches accents and their plain letters: %s', async (text, product) => {
    expect(idsOf(await q(text))).toEqual([ids[product]]);
  });

  it.each([
    ['7610000000017', 'barcode'],
    ['pack-6-muesli', 'alias code'],
    ['PACK-6-MUESLI', 'alias code in capitals'],
    ['art-0042', 'externalId, case aside'],
  ])('finds %s exactly (%s)', async (text) => {
    const res = await q(text);
    expect(res.body).toEqual({ data: await readAll([ids.muesli!]), meta: { total: 1, returned: 1, limit: 100, offset: 0 } });
  });

  it('matches codes only whole, and finds a product without barcode by its id (its barcode)', async () => {
    expect((await q('761000000001')).body).toEqual({ data: [], meta: { total: 0, returned: 0, limit: 100, offset: 0 } });
    expect(idsOf(await q(ids.cheese!))).toEqual([ids.cheese]);
  });

  it('searches description and declarations as whole words, ranked below a match in the name', async () => {
    expect(idsOf(await q('ecuador'))).toEqual([ids.chocolate]);
    expect(idsOf(await q('kakaomasse'))).toEqual([ids.chocolate]);
    expect(idsOf(await q('kakaobutter'))).toEqual([ids.cocoaButter, ids.chocolate]);
    expect(idsOf(await q('ecua'))).toEqual([]);
  });

  it('needs every word, each in any field', async () => {
    expect(idsOf(await q('bio beeren'))).toEqual([ids.muesli]);
    expect(idsOf(await q('schokolade ecuador'))).toEqual([ids.chocolate]);
    expect(idsOf(await q('vollmilch emmental'))).toEqual([ids.milk]);
    expect(idsOf(await q('schokolade beeren'))).toEqual([]);
  });

  it('never serves a deleted product, nor counts it', async () => {
    const res = await q('schokolade');
    expect(idsOf(res)).toEqual([ids.chocolate]);
    expect(res.body.meta.total).toBe(1);
    expect(idsOf(await q('7610000000099'))).toEqual([]);
  });

  it("never serves another organization's products", async () => {
    const other = server.createOrg();
    await create(api(server.url, other.writeKey), { name: 'Schokolade Fremd', barcode: '7610000000017' });
    expect(idsOf(await q('schokolade'))).toEqual([ids.chocolate]);
    expect(idsOf(await q('7610000000017'))).toEqual([ids.muesli]);
  });
});

describe('GET /products?q= follows every write at once', () => {
  it('finds a product right after create, update and delete, with its stored fields', async () => {
    const id = await create(write, { name: 'Haselnuss Nougat', barcode: 'NOUGAT-1', barcodeAliases: [{ code: 'NOUGAT-BOX' }] });
    expect(idsOf(await q('nougat'))).toEqual([id]);

    await update(id, { name: 'Mandel Nougat' });
    expect(idsOf(await q('haselnuss'))).toEqual([]);
    expect(idsOf(await q('mandel'))).toEqual([id]);

    await update(id, { price: 777 });
    const priced = await q('mandel');
    expect(priced.body).toEqual({ data: await readAll([id]), meta: { total: 1, returned: 1, limit: 100, offset: 0 } });
    expect(priced.body.data[0].price).toBe(777);

    await update(id, { barcode: 'NOUGAT-2', barcodeAliases: [] });
    expect(idsOf(await q('nougat-1'))).toEqual([]);
    expect(idsOf(await q('nougat-box'))).toEqual([]);
    expect(idsOf(await q('nougat-2'))).toEqual([id]);

    expect((await write.delete(`/products/${id}`)).status).toBe(200);
    expect((await q('mandel')).body).toEqual({ data: [], meta: { total: 0, returned: 0, limit: 100, offset: 0 } });
    const row = server.sqlite().prepare('SELECT deleted FROM products WHERE id = ?').get(id);
    expect(row).toEqual({ deleted: 1 });
  });
});

describe('GET /products?q= with a common word and a rare one', () => {
  const ids: Record<string, string> = {};
  let shopRead: Api;

  beforeAll(async () => {
    const shop = server.createOrg();
    const shopWrite = api(server.url, shop.writeKey);
    shopRead = api(server.url, shop.readKey);
    for (let i = 1; i <= 12; i++) await create(shopWrite, { name: `Alpenhof Milch Nr ${i}` });
    ids.short = await create(shopWrite, { name: 'Alpenhof Rahm' });
    ids.long = await create(shopWrite, { name: 'Alpenhof Rahm Vollfett 2dl' });
    ids.inDescription = await create(shopWrite, { name: 'Alpenhof Vollfett Nr 7', description: 'Rahm aus der Region' });
    ids.otherBrand = await create(shopWrite, { name: 'Bergsonne Rahm', description: 'Vollfett' });
  });

  const found = async (text: string) => idsOf(await shopRead.get(`/products?q=${encodeURIComponent(text)}`));

  it('ranks the same whichever word is typed first, and needs both', async () => {
    const expected = [ids.short, ids.long, ids.inDescription];
    expect(await found('alpenhof rahm')).toEqual(expected);
    expect(await found('rahm alpenhof')).toEqual(expected);
    expect(await found('alpenhof rahm vollfett')).toEqual([ids.long, ids.inDescription]);
    expect(await found('vollfett rahm alpenhof')).toEqual([ids.long, ids.inDescription]);
  });

  it('narrows by a short word being typed, in the name or as a whole word of the description', async () => {
    expect(await found('rahm al')).toEqual([ids.short, ids.long, ids.inDescription]);
    expect(await found('rahm vo')).toEqual([ids.long, ids.inDescription]);
    expect(await found('milch nr 7')).toHaveLength(1);
  });
});

describe('GET /products?q= pages with offset', () => {
  let juices: string[];

  beforeAll(async () => {
    juices = [];
    for (let i = 1; i <= 7; i++) juices.push(await create(write, { name: `Apfelsaft trüb Nr ${i}` }));
  });

  it('serves every match once across offsets, with meta.offset and the match count', async () => {
    const pages = [];
    for (const offset of [0, 3, 6]) pages.push(await search(`q=apfelsaft&limit=3&offset=${offset}`));
    const seen = pages.flatMap(idsOf);
    expect([...seen].sort()).toEqual([...juices].sort());
    expect(pages.map((p) => p.body.meta)).toEqual([
      { total: 7, returned: 3, limit: 3, offset: 0 },
      { total: 7, returned: 3, limit: 3, offset: 3 },
      { total: 7, returned: 1, limit: 3, offset: 6 },
    ]);
    expect((await search('q=apfelsaft&offset=10000')).body).toEqual({ data: [], meta: { total: 7, returned: 0, limit: 100, offset: 10000 } });
  });

  it.each([
    ['250', 250],
    ['251', 250],
    ['5000', 250],
    ['1', 1],
  ])('caps limit=%s at 250 with q and reports the applied limit', async (limit, applied) => {
    const res = await search(`q=apfelsaft&limit=${limit}`);
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total: 7, returned: Math.min(7, applied), limit: applied, offset: 0 });
  });
});

describe('GET /products?q=&store=', () => {
  it("leaves out products hidden in the store by their category's current lists; total equals returned", async () => {
    const category = async (body: Record<string, unknown>) => (await write.post('/categories', body)).body.id as string;
    const spirits = await category({ name: 'Spirituosen', hideStore: ['store-b'] });
    const regional = await category({ name: 'Regional', allowStore: ['store-a'] });
    const brandy = await create(write, { name: 'Kirsch Brand', category: spirits });
    const jam = await create(write, { name: 'Kirsch Konfitüre', category: regional });
    const yoghurt = await create(write, { name: 'Kirsch Joghurt' });
    const inStore = async (store: string, paging = '') => (await search(`q=kirsch&store=${store}${paging}`)).body;

    expect((await q('kirsch')).body.meta).toEqual({ total: 3, returned: 3, limit: 100, offset: 0 });
    expect(new Set((await inStore('store-a')).data.map((p: { id: string }) => p.id))).toEqual(new Set([brandy, jam, yoghurt]));
    expect(await inStore('store-b')).toEqual({ data: await readAll([yoghurt]), meta: { total: 1, returned: 1, limit: 100, offset: 0 } });
    const c = await inStore('store-c');
    expect(new Set(c.data.map((p: { id: string }) => p.id))).toEqual(new Set([brandy, yoghurt]));
    expect(c.meta).toEqual({ total: 2, returned: 2, limit: 100, offset: 0 });

    const first = await inStore('store-c', '&limit=1&offset=0');
    const second = await inStore('store-c', '&limit=1&offset=1');
    expect([...first.data, ...second.data].map((p: { id: string }) => p.id).sort()).toEqual([brandy, yoghurt].sort());
    expect(second.meta).toEqual({ total: 1, returned: 1, limit: 1, offset: 1 });

    expect((await write.post(`/categories/${spirits}`, { hideStore: [] })).status).toBe(200);
    expect((await write.post(`/categories/${regional}`, { allowStore: ['store-a', 'store-b'] })).status).toBe(200);
    expect((await inStore('store-b')).meta).toEqual({ total: 3, returned: 3, limit: 100, offset: 0 });
  });

  it('agrees with filtering the whole catalog in memory: deleted left out, store lists applied (property)', async () => {
    const stores = ['s1', 's2', 's3'];
    const words = ['apfel', 'birne', 'kiwi', 'mango', 'quitte'];
    const lists = fc.record({ allowStore: fc.subarray(stores), hideStore: fc.subarray(stores) });
    const product = fc.record({ word: fc.constantFrom(...words), category: fc.integer({ min: -1, max: 2 }), deleted: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(lists, { minLength: 3, maxLength: 3 }),
        fc.array(product, { minLength: 1, maxLength: 10 }),
        fc.constantFrom(...words),
        fc.option(fc.constantFrom(...stores), { nil: undefined }),
        async (categoryLists, products, word, store) => {
          const own = api(server.url, server.createOrg().writeKey);
          const categoryIds: string[] = [];
          for (const [i, l] of categoryLists.entries()) {
            categoryIds.push((await own.post('/categories', { name: `Kategorie ${i}`, ...l })).body.id);
          }
          const expected: string[] = [];
          for (const [i, p] of products.entries()) {
            const category = categoryIds[p.category];
            const id = await create(own, { name: `${p.word} Sorte ${i}`, ...(category ? { category } : {}) });
            if (p.deleted) expect((await own.delete(`/products/${id}`)).status).toBe(200);
            const categoryStores: StoreLists = p.category < 0 ? {} : (categoryLists[p.category] as StoreLists);
            if (!p.deleted && p.word === word && (store === undefined || isVisibleInStore(categoryStores, store))) expected.push(id);
          }
          const res = await own.get(`/products?q=${word}&limit=250${store ? `&store=${store}` : ''}`);
          expect(res.status).toBe(200);
          expect(idsOf(res).sort()).toEqual(expected.sort());
          expect(res.body.meta).toEqual({ total: expected.length, returned: expected.length, limit: 250, offset: 0 });
        },
      ),
      { numRuns: 25 },
    );
  });
});
