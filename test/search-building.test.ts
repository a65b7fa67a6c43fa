import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, type Api } from './support/api.js';
import { startTestServer, type TestOrg, type TestServer } from './support/server.js';

/** Holds the start-up build of the search index before each of its steps, so a test can act while it runs. */
function buildGate() {
  const waiting: (() => void)[] = [];
  let open = false;
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    pause: () => (open ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve))),
    /** Resolves once the build is held before its next step. */
    async held(): Promise<void> {
      while (waiting.length === 0) await nextTurn();
    },
    /** Lets the build index one chunk and waits until it is held again. */
    async step(): Promise<void> {
      waiting.shift()?.();
      await this.held();
    },
    release(): void {
      open = true;
      for (const resolve of waiting.splice(0)) resolve();
    },
  };
}

let server: TestServer;
let org: TestOrg;
let write: Api;
const gate = buildGate();
/** Ids of the products stored before the restart, in id order: the order the build reads them in. */
let stored: string[];
let barcodeOf: Map<string, string>;

beforeAll(async () => {
  const first = await startTestServer();
  org = first.createOrg();
  const client = api(first.url, org.writeKey);
  for (let i = 1; i <= 6; i++) {
    const res = await client.post('/products', { name: `Teemischung Nr ${i}`, price: 390, taxCategory: '2.6', barcode: `tea-${i}` });
    expect(res.status).toBe(200);
  }
  const products: { id: string; barcode: string }[] = (await client.get('/products')).body.data;
  stored = products.map((p) => p.id);
  barcodeOf = new Map(products.map((p) => [p.id, p.barcode]));
  server = await first.restart({ search: { chunkSize: 2, pause: gate.pause } });
  write = api(server.url, org.writeKey);
});
afterAll(async () => {
  gate.release();
  await server.destroy();
});

const idsOf = (res: { body: { data: { id: string }[] } }) => res.body.data.map((p) => p.id).sort();

async function healthOf(): Promise<string> {
  return (await api(server.url).get('/health')).body.search as string;
}

describe('GET /products?q= while the search index is building', () => {
  it('answers 503 { error } and health says building, while every other endpoint works', async () => {
    await gate.held();
    expect((await api(server.url).get('/health')).body).toEqual({ status: 'ok', version: expect.any(String), search: 'building' });

    const res = await write.get('/products?q=tee');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      error:
        'Product search is starting: the search index of this organization is still being built. ' +
        'Retry in a few seconds; listing and reading products work meanwhile.',
    });

    expect((await write.get('/products')).body.meta).toEqual({ total: 6, returned: 6, limit: 100 });
    expect((await write.get(`/products/${stored[0]}`)).status).toBe(200);
    expect(idsOf(await write.get('/products?barcode=tea-3'))).toHaveLength(1);
    expect((await write.get('/products?limit=0')).status).toBe(400);
  });

  it('searches at once in an organization created during the build', async () => {
    const fresh = api(server.url, server.createOrg().writeKey);
    const id = (await fresh.post('/products', { name: 'Teebeutel', price: 100, taxCategory: '2.6' })).body.id;
    expect(idsOf(await fresh.get('/products?q=tee'))).toEqual([id]);
    expect(await healthOf()).toBe('building');
  });

  it('takes in writes made between its steps: none is lost, none is undone by a later step', async () => {
    // Three steps: the organization made on first start (no products), then two chunks of this one.
    for (let i = 0; i < 3; i++) await gate.step();
    const [indexed, , , , , pending] = stored as [string, string, string, string, string, string];
    expect((await write.delete(`/products/${indexed}`)).status).toBe(200);
    expect((await write.post(`/products/${pending}`, { name: 'Kaffeemischung Spezial' })).status).toBe(200);
    const created = (await write.post('/products', { name: 'Teemischung Neu', price: 450, taxCategory: '2.6' })).body.id as string;
    expect(await healthOf()).toBe('building');

    gate.release();
    while ((await healthOf()) !== 'ready') await new Promise((resolve) => setImmediate(resolve));

    const tea = await write.get('/products?q=teemischung');
    expect(tea.status).toBe(200);
    expect(idsOf(tea)).toEqual([...stored.slice(1, 5), created].sort());
    expect(tea.body.meta).toEqual({ total: 5, returned: 5, limit: 100, offset: 0 });
    expect(idsOf(await write.get('/products?q=kaffeemischung'))).toEqual([pending]);
    expect(idsOf(await write.get(`/products?q=${barcodeOf.get(indexed)}`))).toEqual([]);
  });
});
