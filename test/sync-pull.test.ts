import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './support/cli.js';
import { pulledSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { setUpstreamFeatures } from './support/upstream-catalog.js';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ intervalSeconds: 1, features: ['identity-logs', 'barcode-aliases'] });
});

afterAll(async () => {
  await pair.destroy();
});

const upCreated = async (path: string, body: unknown): Promise<string> => {
  const res = await pair.up.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};
const nextPull = () => waitForSync(pair.write, pulledSince(new Date().toISOString()));
const pulledOnly = (status: any, since: string) => status.lastPullAt !== null && status.lastPullAt > since;
const outboxRows = (id: string) => pair.local.sqlite().prepare('SELECT operation, body, state FROM outbox WHERE resource_id = ?').all(id);

describe('pulling the upstream catalog', () => {
  let cheese: string;
  let bread: string;
  let category: string;

  it('brings upstream records in under their upstream ids, without queueing them again', async () => {
    const store = await upCreated('/stores', { name: 'Zentrale' });
    category = await upCreated('/categories', { name: 'Käse', hideStore: [store] });
    const supplier = await upCreated('/suppliers', { name: 'Alp' });
    cheese = await upCreated('/products', { name: 'Käse', price: 500, taxCategory: '2.6', category, supplier, barcode: 'kaese' });
    bread = await upCreated('/products', { name: 'Brot', price: 300, taxCategory: '2.6', barcode: 'brot' });
    await nextPull();
    const local = await pair.write.get(`/products/${cheese}`);
    expect(local.body.data).toMatchObject({ id: cheese, name: 'Käse', price: 500, category, supplier, hideStore: [store], deleted: false });
    expect((await pair.write.get(`/categories/${category}`)).body.data).toMatchObject({ name: 'Käse', hideStore: [store] });
    expect(outboxRows(cheese)).toEqual([]);
    expect((await pair.write.get('/sync')).body.data.pending).toBe(0);
  });

  it('pushes a local edit made while pushing failed, and keeps the upstream edits of other fields', async () => {
    pair.proxy.setMode('error', { only: (method) => method === 'POST' });
    expect((await pair.write.post(`/products/${cheese}`, { price: 550 })).status).toBe(200);
    expect((await pair.up.post(`/products/${cheese}`, { name: 'Bergkäse', price: 520, description: 'würzig' })).status).toBe(200);
    pair.proxy.setMode('pass');
    await waitForSync(pair.write, (s) => s.pending === 0);
    const since = new Date().toISOString();
    const settled = await waitForSync(pair.write, (s) => pulledOnly(s, since) && s.pending === 0);
    expect(settled.state).toBe('idle');
    const local = (await pair.write.get(`/products/${cheese}`)).body.data;
    const upstream = (await pair.up.get(`/products/${cheese}`)).body.data;
    expect(local).toMatchObject({ name: 'Bergkäse', price: 550, description: 'würzig' });
    expect(upstream).toMatchObject({ name: 'Bergkäse', price: 550, description: 'würzig' });
  });

  it('keeps the local value of a field whose change has not reached the upstream, while the other fields follow it', async () => {
    // Through the CLI, a process of its own: a lock wait in this process would block the upstream's commits.
    await setUpstreamFeatures(pair, { disable: ['barcode-aliases'] });
    // The upstream organization refuses barcode aliases, so this change is parked and stays unpushed.
    expect((await pair.write.post(`/products/${bread}`, { price: 333, barcodeAliases: [{ code: 'brot-2' }] })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.parked === 1);
    expect((await pair.up.post(`/products/${bread}`, { price: 310, name: 'Ruchbrot' })).status).toBe(200);
    await nextPull();
    expect((await pair.write.get(`/products/${bread}`)).body.data).toMatchObject({ name: 'Ruchbrot', price: 333, barcodeAliases: [{ code: 'brot-2' }] });
    expect((await pair.up.get(`/products/${bread}`)).body.data).toMatchObject({ name: 'Ruchbrot', price: 310 });

    await setUpstreamFeatures(pair, { enable: ['barcode-aliases'] });
    expect(await runCli(pair.local.dataDir, ['sync', 'retry', pair.org.id, '--all', '--json'])).toMatchObject({ status: 0, json: { retried: 1 } });
    await waitForSync(pair.write, (s) => s.parked === 0 && s.pending === 0);
    await nextPull();
    for (const client of [pair.write, pair.up]) {
      expect((await client.get(`/products/${bread}`)).body.data).toMatchObject({ name: 'Ruchbrot', price: 333, barcodeAliases: [{ code: 'brot-2' }] });
    }
  });

  it('soft-deletes locally what the upstream removed, and local search follows', async () => {
    expect((await pair.up.delete(`/products/${bread}`)).status).toBe(200);
    await nextPull();
    expect((await pair.write.get(`/products/${bread}`)).body.data.deleted).toBe(true);
    const found = await pair.write.get('/products?q=bergk%C3%A4se');
    expect(found.status).toBe(200);
    expect(found.body.data.map((p: { id: string }) => p.id)).toEqual([cheese]);
    expect((await pair.write.get('/products?q=ruchbrot')).body.data).toEqual([]);
  });
});
