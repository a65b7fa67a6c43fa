import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages } from './support/api.js';
import { drainedSince, pulledSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { catalogReport } from './support/catalog-report.js';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ intervalSeconds: 1 });
});
afterAll(async () => {
  await pair.destroy();
});

describe('an imported catalog file', () => {
  it('is found by the search at once, and its products reach the upstream with their category', async () => {
    const { write, up } = pair;
    // A category made on this store PC: its creation is queued before the products that name it.
    expect((await write.post('/categories', { name: 'Käse' })).status).toBe(200);
    const file = [
      'externalId;barcode;name;price;taxCategory;category',
      'K-1;7610000000509;Gruyère AOP rezent;6,90;2.6;Käse',
      'K-2;7610000000516;Appenzeller mild;5,40;2.6;Käse',
      'K-3;7610000000523;Tête de Moine;8,20;2.6;Käse',
    ].join('\r\n');
    const since = new Date().toISOString();
    const res = await write.request('POST', '/catalog/import', { body: file, headers: { 'content-type': 'text/csv' } });
    expect(res.body).toEqual({ data: catalogReport({ created: 3 }) });

    // Right after the answer, with typos and without accents, as the kiosk searches.
    const found = await write.get('/products?q=gruyere');
    expect(found.body.data.map((p: { name: string }) => p.name)).toEqual(['Gruyère AOP rezent']);
    expect((await write.get('/products?q=apenzeller')).body.data.map((p: { name: string }) => p.name)).toEqual(['Appenzeller mild']);
    expect((await write.get('/products?barcode=7610000000523')).body.data.map((p: { name: string }) => p.name)).toEqual(['Tête de Moine']);

    const done = await waitForSync(write, drainedSince(since));
    expect(done).toMatchObject({ pending: 0, parked: 0, lastError: null });
    const upCategories = (await collectPages(up, '/categories?limit=5000')).items;
    expect(upCategories.map((c) => c.name)).toEqual(['Käse']);
    const upProducts = (await collectPages(up, '/products?limit=5000')).items;
    expect(upProducts.map((p) => [p.externalId, p.name, p.price, p.category]).sort()).toEqual([
      ['K-1', 'Gruyère AOP rezent', 690, upCategories[0].id],
      ['K-2', 'Appenzeller mild', 540, upCategories[0].id],
      ['K-3', 'Tête de Moine', 820, upCategories[0].id],
    ]);
    expect((await up.get('/products?q=tete%20de%20moine')).body.data.map((p: { name: string }) => p.name)).toEqual(['Tête de Moine']);

    // A new price from the file is one update per changed product, pushed like any other.
    const cheaper = file.replace('5,40', '4,90');
    const again = new Date().toISOString();
    expect((await write.request('POST', '/catalog/import', { body: cheaper, headers: { 'content-type': 'text/csv' } })).body.data).toEqual(catalogReport({ updated: 1, unchanged: 2, changes: [{ line: expect.any(Number), field: 'price', from: '5.40', to: '4.90' }] }));
    await waitForSync(write, drainedSince(again));
    expect((await collectPages(up, '/products?limit=5000')).items.find((p) => p.externalId === 'K-2').price).toBe(490);
  });

  it('names a category pulled from the upstream, which the upstream then finds as its own', async () => {
    const { write, up } = pair;
    const bread = (await up.post('/categories', { name: 'Brot' })).body.id as string;
    await waitForSync(write, pulledSince(new Date().toISOString()));
    expect((await write.get(`/categories/${bread}`)).body.data).toMatchObject({ name: 'Brot' });

    const since = new Date().toISOString();
    const file = 'barcode,name,price,taxCategory,category\n7610000000608,Zopf 500g,5.00,2.6,Brot\n';
    expect((await write.request('POST', '/catalog/import', { body: file, headers: { 'content-type': 'text/csv' } })).body.data).toMatchObject({ created: 1, errors: [] });
    expect(await waitForSync(write, drainedSince(since))).toMatchObject({ pending: 0, parked: 0 });
    const upZopf = (await up.get('/products?barcode=7610000000608')).body.data;
    expect(upZopf.map((p: { name: string; category: string }) => [p.name, p.category])).toEqual([['Zopf 500g', bread]]);
  });
});
