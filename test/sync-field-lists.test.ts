import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Api } from './support/api.js';
import { drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';
import { seedUpstream, setUpstreamFeatures, syncRun } from './support/upstream-catalog.js';

const created = async (client: Api, path: string, body: unknown): Promise<string> => {
  const res = await client.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id as string;
};

describe('field condition 2: an upstream with more suppliers than one answer of the plain list holds', () => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await startSyncPair();
    seedUpstream(pair, { suppliers: 1200 });
  });
  afterAll(async () => {
    await pair.destroy();
  });

  it('keeps a supplier that sorts past the first 1,000 through every pull', async () => {
    const since = new Date().toISOString();
    const local = await created(pair.write, '/suppliers', { name: 'Zimmerei Holzer' });
    await waitForSync(pair.write, drainedSince(since));
    await syncRun(pair, { full: true });
    await syncRun(pair);
    expect((await pair.write.get(`/suppliers/${local}`)).body.data).toMatchObject({ name: 'Zimmerei Holzer', deleted: false });
  });

  it('removes nothing after a plain list as long as the limit it asked for (a v1-only upstream)', async () => {
    seedUpstream(pair, { suppliers: 4000 });
    pair.proxy.setMode('missing', { only: (method, path) => method === 'GET' && path === '/openapi.json' });
    const since = new Date().toISOString();
    const local = await created(pair.write, '/suppliers', { name: 'Zürcher Mühle' });
    await waitForSync(pair.write, drainedSince(since));
    await syncRun(pair, { full: true });
    expect((await pair.write.get(`/suppliers/${local}`)).body.data).toMatchObject({ name: 'Zürcher Mühle', deleted: false });
    pair.proxy.setMode('pass');
  });
});

describe('field condition 6: the upstream organization without the identity-logs feature', () => {
  let pair: SyncPair;
  beforeAll(async () => {
    pair = await startSyncPair({ features: ['identity-logs'] });
  });
  afterAll(async () => {
    await pair.destroy();
  });

  it('keeps every blocked identity known locally when the pull of that list is refused', async () => {
    const blocked = await created(pair.up, '/identity-logs/blocked', { comment: 'Hausverbot', first_name: 'Max', last_name: 'Muster' });
    await syncRun(pair);
    expect((await pair.write.get(`/identity-logs/blocked/${blocked}`)).body.data).toMatchObject({ last_name: 'Muster', deleted: false });

    await setUpstreamFeatures(pair, { disable: ['identity-logs'] });
    await syncRun(pair, { full: true });
    await syncRun(pair);
    expect((await pair.write.get(`/identity-logs/blocked/${blocked}`)).body.data).toMatchObject({ last_name: 'Muster', deleted: false });
    expect((await pair.write.get('/sync')).body.data).toMatchObject({ state: 'idle', lastError: null });
  });
});
