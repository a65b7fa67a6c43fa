import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/version.js';
import { api, collectPages, type Api } from './support/api.js';
import { runProcess, type ProcessResult } from './support/processes.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

let now = Date.parse('2026-11-21T08:00:00.000Z');
const at = (minutes: number) => new Date(Date.parse('2026-11-21T08:00:00.000Z') + minutes * 60_000).toISOString();
const setClock = (minutes: number) => (now = Date.parse(at(minutes)));

let server: TestServer;
let org: TestOrg;
let write: Api;
let read: Api;

beforeAll(async () => {
  server = await startTestServer({ clock: { now: () => new Date(now) } });
  org = server.createOrg();
  write = api(server.url, org.writeKey);
  read = api(server.url, org.readKey);
});
afterAll(async () => {
  await server.destroy();
});

async function create(name: string, fields: Record<string, unknown> = {}): Promise<string> {
  const res = await write.post('/products', { name, price: 100, taxCategory: '2.6', ...fields });
  expect(res.status).toBe(200);
  return res.body.id;
}

const sinceQuery = (since: string) => `updatedSince=${encodeURIComponent(since)}`;
const names = (items: { name: string }[]) => items.map((p) => p.name);

describe('GET /products query checks of the feed', () => {
  it.each([
    ['showOnScale=yes', 'showOnScale', 'must be "true" or "false"'],
    ['updatedSince=yesterday', 'updatedSince', 'must be an ISO 8601 date-time'],
    ['showOnScale=true&q=milch', 'showOnScale', 'showOnScale cannot be combined with q'],
    ['showOnScreen=1', 'showOnScreen', 'must be "true" or "false"'],
    ['showOnScreen=true&barcode=761', 'showOnScreen', 'showOnScreen cannot be combined with barcode'],
    ['updatedSince=2026-11-21T08:00:00Z&barcode=761', 'updatedSince', 'updatedSince cannot be combined with barcode'],
  ])('refuses %s in the validation shape', async (query, field, message) => {
    const res = await read.get(`/products?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { formErrors: [], fieldErrors: { [field]: [expect.stringContaining(message)] } } });
  });
});

describe('GET /products?showOnScale=', () => {
  it('serves only the products a scale may sell (true) or the others (false), active ones, by cursor', async () => {
    const onScale = await Promise.all(['Scale A', 'Scale B', 'Scale C', 'Scale D'].map((n) => create(n, { showOnScale: true })));
    await create('Shelf E', { showOnScale: false });
    await create('Shelf F');
    await write.delete(`/products/${onScale[3]}`);

    const scale = await collectPages(read, '/products?showOnScale=true&limit=2');
    expect(scale.pages).toBe(2);
    expect(scale.items.map((p) => p.id)).toEqual(onScale.slice(0, 3).sort());
    expect(scale.items.every((p) => p.showOnScale === true && p.deleted === false)).toBe(true);
    expect(names((await collectPages(read, '/products?showOnScale=false')).items).sort()).toEqual(['Shelf E', 'Shelf F']);
  });
});

describe('GET /products?showOnScreen=', () => {
  it('serves only what a kiosk offers without a scan (true) or the rest (false), and honours the store filter', async () => {
    const shop = server.createOrg();
    const shopWrite = api(server.url, shop.writeKey);
    const shopRead = api(server.url, shop.readKey);
    const branch = (await shopWrite.post('/stores', { name: 'Filiale' })).body.id as string;
    const hidden = (await shopWrite.post('/categories', { name: 'Tabak', hideStore: [branch] })).body.id;
    const make = async (name: string, fields: Record<string, unknown>) =>
      (await shopWrite.post('/products', { name, price: 100, taxCategory: '0', ...fields })).body.id as string;
    const shown = [await make('Gipfeli', { showOnScreen: true }), await make('Brot', { showOnScreen: true }), await make('Zigaretten', { showOnScreen: true, category: hidden })];
    await make('Regal', { showOnScreen: false });
    await make('Lager', {});
    await shopWrite.delete(`/products/${shown[1]}`);

    const screen = await collectPages(shopRead, '/products?showOnScreen=true&limit=1');
    expect(screen.items.map((p) => p.id)).toEqual([shown[0], shown[2]].sort());
    expect(screen.items.every((p) => p.showOnScreen === true)).toBe(true);
    expect(names((await collectPages(shopRead, `/products?showOnScreen=true&store=${branch}`)).items)).toEqual(['Gipfeli']);
    expect(names((await collectPages(shopRead, '/products?showOnScreen=false')).items).sort()).toEqual(['Lager', 'Regal']);
  });
});

describe('GET /products?updatedSince=', () => {
  it('serves every change after the time, deletions included, oldest change first, by cursor', async () => {
    const feed = server.createOrg();
    const feedWrite = api(server.url, feed.writeKey);
    const feedRead = api(server.url, feed.readKey);
    const make = async (name: string) => (await feedWrite.post('/products', { name, price: 100, taxCategory: '0', showOnScale: true })).body.id;
    setClock(10);
    const apple = await make('Apple');
    const pear = await make('Pear');
    setClock(20);
    await make('Plum');
    setClock(30);
    await feedWrite.post(`/products/${apple}`, { price: 120 });
    setClock(40);
    await feedWrite.delete(`/products/${pear}`);

    const all = await collectPages(feedRead, `/products?${sinceQuery(at(10))}&limit=1`);
    expect(all.items.map((p) => [p.name, p.lastupdate, p.deleted])).toEqual([
      ['Plum', at(20), false],
      ['Apple', at(30), false],
      ['Pear', at(40), true],
    ]);
    expect(all.items[1]).toMatchObject({ price: 120 });
    // The same instant with an offset, and a time before everything.
    expect(names((await collectPages(feedRead, `/products?${sinceQuery('2026-11-21T08:25:00+00:00')}`)).items)).toEqual(['Apple', 'Pear']);
    expect(names((await collectPages(feedRead, `/products?${sinceQuery('2026-11-21T09:35:00+01:00')}`)).items)).toEqual(['Pear']);
    expect(names((await collectPages(feedRead, `/products?${sinceQuery(at(0))}`)).items)).toEqual(['Plum', 'Apple', 'Pear']);
    // `completeUntil`: the server's own time up to which the feed is complete, where a scale may go on from next time.
    expect((await feedRead.get(`/products?${sinceQuery(at(40))}`)).body).toEqual({
      data: [],
      meta: { total: 0, returned: 0, limit: 100, completeUntil: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) },
    });
    // Another organization's changes never show.
    expect(names((await collectPages(read, `/products?${sinceQuery(at(10))}`)).items)).not.toContain('Plum');
  });

  it('serves again a product changed while a scale is paging, so a scale that saves the last lastupdate misses nothing', async () => {
    const feed = server.createOrg();
    const feedWrite = api(server.url, feed.writeKey);
    const feedRead = api(server.url, feed.readKey);
    setClock(100);
    const first = (await feedWrite.post('/products', { name: 'First', price: 1, taxCategory: '0' })).body.id;
    setClock(101);
    await feedWrite.post('/products', { name: 'Second', price: 1, taxCategory: '0' });

    const page1 = await feedRead.get(`/products?${sinceQuery(at(99))}&limit=1`);
    expect(names(page1.body.data)).toEqual(['First']);
    setClock(102);
    await feedWrite.post(`/products/${first}`, { price: 2 });
    const rest = [];
    for (let cursor = page1.body.meta.nextCursor; cursor; ) {
      const res = await feedRead.get(`/products?${sinceQuery(at(99))}&limit=1&cursor=${cursor}`);
      rest.push(...res.body.data);
      cursor = res.body.meta.nextCursor;
    }
    expect(rest.map((p) => [p.name, p.price])).toEqual([
      ['Second', 1],
      ['First', 2],
    ]);
    const last = rest[rest.length - 1].lastupdate;
    expect((await feedRead.get(`/products?${sinceQuery(last)}`)).body.data).toEqual([]);
  });

  it('combines with showOnScale and store', async () => {
    const feed = server.createOrg();
    server.createStores(feed.id, ['any-store']);
    const feedWrite = api(server.url, feed.writeKey);
    const feedRead = api(server.url, feed.readKey);
    setClock(200);
    await feedWrite.post('/products', { name: 'Weighed', price: 1, taxCategory: '0', showOnScale: true });
    await feedWrite.post('/products', { name: 'Packed', price: 1, taxCategory: '0' });
    const res = await feedRead.get(`/products?${sinceQuery(at(199))}&showOnScale=true&store=any-store`);
    // A changed product the scale does not sell is a removal there: it may have been on the scale before.
    // Both changed in the same millisecond: they come in the order of their random ids.
    const seen = res.body.data.map((p: { name: string; deleted: boolean }) => [p.name, p.deleted]) as [string, boolean][];
    expect(seen.sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['Packed', true],
      ['Weighed', false],
    ]);
  });
});

/** Runs the documented example script the way a scale PC would. */
function runScaleScript(env: Record<string, string>): Promise<ProcessResult> {
  return runProcess(process.execPath, [join(PROJECT_ROOT, 'docs/examples/scale-feed.mjs')], { env });
}

describe('the example scale script (docs/examples/scale-feed.mjs)', () => {
  it('loads the scale items, then learns of changes and deletions', async () => {
    const shop = server.createOrg();
    const shopWrite = api(server.url, shop.writeKey);
    const env = { BASE_URL: server.url, KEY: shop.readKey, STATE: join(server.dataDir, 'scale-items.json') };
    setClock(300);
    const cheese = (await shopWrite.post('/products', { name: 'Cheese', price: 2490, taxCategory: '2.6', barcode: '2112345000008', showOnScale: true })).body.id;
    const ham = (await shopWrite.post('/products', { name: 'Ham', price: 3200, taxCategory: '2.6', showOnScale: true })).body.id;
    await shopWrite.post('/products', { name: 'Soap', price: 300, taxCategory: '8.1' });

    const first = await runScaleScript(env);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ changed: 2, removed: 0, items: 2, since: at(300) });

    setClock(301);
    await shopWrite.post(`/products/${cheese}`, { price: 2590 });
    await shopWrite.delete(`/products/${ham}`);
    const second = await runScaleScript(env);
    expect(JSON.parse(second.stdout)).toEqual({ changed: 1, removed: 1, items: 1, since: at(301) });
    expect(JSON.parse(readFileSync(env.STATE, 'utf8')).items).toEqual({ [cheese]: { barcode: '2112345000008', name: 'Cheese', price: 2590 } });
  });
});

describe('GET /products?updatedSince= with showOnScale or store: what leaves the feed is a removal', () => {
  it('lists a product switched off the scale, or hidden in the store by its category, as deleted, and brings it back when shown again', async () => {
    const shop = server.createOrg();
    const shopWrite = api(server.url, shop.writeKey);
    const shopRead = api(server.url, shop.readKey);
    const branch = (await shopWrite.post('/stores', { name: 'Filiale' })).body.id as string;
    server.createStores(shop.id, ['other']);
    const cheeses = (await shopWrite.post('/categories', { name: 'Käse' })).body.id as string;
    setClock(400);
    const make = async (name: string) =>
      (await shopWrite.post('/products', { name, price: 2490, taxCategory: '2.6', showOnScale: true, category: cheeses })).body.id as string;
    const gruyere = await make('Gruyère');
    const emmental = await make('Emmental');
    const scaleFeed = (since: string) => collectPages(shopRead, `/products?${sinceQuery(since)}&showOnScale=true&store=${branch}`);
    // Products changed in the same millisecond come in id order, and ids are random: compare by name.
    const removals = (items: { name: string; deleted: boolean }[]) => items.map((p) => [p.name, p.deleted]).sort(([a], [b]) => String(a).localeCompare(String(b)));
    expect(removals((await scaleFeed(at(399))).items)).toEqual([
      ['Emmental', false],
      ['Gruyère', false],
    ]);

    setClock(401);
    await shopWrite.post(`/products/${gruyere}`, { showOnScale: false });
    expect(removals((await scaleFeed(at(400))).items)).toEqual([['Gruyère', true]]);

    setClock(402);
    expect((await shopWrite.post(`/categories/${cheeses}`, { hideStore: [branch] })).status).toBe(200);
    expect(removals((await scaleFeed(at(401))).items)).toEqual([
      ['Emmental', true],
      ['Gruyère', true],
    ]);
    // Another store's scale still sells it.
    expect(names((await collectPages(shopRead, `/products?${sinceQuery(at(401))}&showOnScale=true&store=other`)).items.filter((p) => !p.deleted))).toEqual([
      'Emmental',
    ]);

    setClock(403);
    expect((await shopWrite.post(`/categories/${cheeses}`, { hideStore: [] })).status).toBe(200);
    expect(removals((await scaleFeed(at(402))).items)).toEqual([
      ['Emmental', false],
      ['Gruyère', true],
    ]);
    // The product itself is untouched by the feed's view of it.
    expect((await shopRead.get(`/products/${emmental}`)).body.data).toMatchObject({ deleted: false, showOnScale: true });
  });
});
