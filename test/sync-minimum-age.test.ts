import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/api.js';
import { startTestServer, type TestServer } from './support/server.js';
import { FAST_SYNC, configureSync, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ intervalSeconds: 1 });
});
afterAll(async () => {
  await pair.destroy();
});

const upstreamIdOf = (localId: string): string | undefined =>
  (pair.local.sqlite().prepare("SELECT upstream_id FROM sync_ids WHERE kind = 'product' AND local_id = ?").get(localId) as { upstream_id: string } | undefined)
    ?.upstream_id;
const ageFields = (data: { ageRestriction?: boolean; minimumAge?: number }) => ({ ageRestriction: data.ageRestriction, minimumAge: data.minimumAge });
const nextPull = () => waitForSync(pair.write, drainedSince(new Date().toISOString()));

describe('minimumAge between a store PC and its upstream', () => {
  it('pushes the age of a product and of a change, and pulls the upstream\'s changes back', async () => {
    const created = await pair.write.post('/products', { name: 'Apfelwein', price: 450, taxCategory: '8.1', minimumAge: 16 });
    expect(created.status).toBe(200);
    const local = created.body.id as string;
    await waitForSync(pair.write, (s) => s.pending === 0 && upstreamIdOf(local) !== undefined);
    const upId = upstreamIdOf(local) as string;
    expect(ageFields((await pair.up.get(`/products/${upId}`)).body.data)).toEqual({ ageRestriction: true, minimumAge: 16 });

    expect((await pair.write.post(`/products/${local}`, { minimumAge: 18 })).status).toBe(200);
    await waitForSync(pair.write, (s) => s.pending === 0);
    expect(ageFields((await pair.up.get(`/products/${upId}`)).body.data)).toEqual({ ageRestriction: true, minimumAge: 18 });

    expect((await pair.up.post(`/products/${upId}`, { ageRestriction: false })).status).toBe(200);
    await nextPull();
    expect(ageFields((await pair.write.get(`/products/${local}`)).body.data)).toEqual({ ageRestriction: false, minimumAge: undefined });

    expect((await pair.up.post(`/products/${upId}`, { minimumAge: 16 })).status).toBe(200);
    await nextPull();
    expect(ageFields((await pair.write.get(`/products/${local}`)).body.data)).toEqual({ ageRestriction: true, minimumAge: 16 });
  });
});

/**
 * An upstream of a release before minimumAge, in front of a real server: its
 * products come without the field, and a body holding it is refused as that
 * release's strict schema refuses any unknown field.
 */
async function startEarlierUpstream(upstreamUrl: string): Promise<{ url: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (body.includes('"minimumAge"')) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 400, message: 'minimumAge: is not a writable field (unknown or read-only)', timestamp: new Date().toISOString(), path: req.url }));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => name === 'authorization' || name === 'content-type' || name === 'idempotency-key')) as Record<string, string>;
    const answer = await fetch(new URL(req.url ?? '/', upstreamUrl.replace(/\/api\/v1$/, '')), { method: req.method, headers, ...(body ? { body } : {}) });
    const text = await answer.text();
    const older = text.replace(/,"minimumAge":1[68]/g, '');
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(older);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, server };
}

describe('minimumAge and an upstream of an earlier release', () => {
  let upstream: TestServer;
  let local: TestServer;
  let earlier: Server;
  afterAll(async () => {
    await local?.destroy();
    await new Promise((resolve) => earlier?.close(resolve));
    await upstream?.destroy();
  });

  it('reads its restricted products as 18 and does not rewrite them on every pull', async () => {
    upstream = await startTestServer();
    const proxy = await startEarlierUpstream(upstream.url);
    earlier = proxy.server;
    local = await startTestServer({ sync: FAST_SYNC });
    const upOrg = upstream.createOrg();
    const org = local.createOrg();
    configureSync(local, org.id, { url: proxy.url, key: upOrg.writeKey, intervalSeconds: 1 });
    const up = api(upstream.url, upOrg.writeKey);
    const write = api(local.url, org.writeKey);

    const kirsch = await up.post('/products', { name: 'Kirsch', price: 2450, taxCategory: '8.1', ageRestriction: true });
    expect(kirsch.status).toBe(200);
    const id = kirsch.body.id as string;
    await waitForSync(write, drainedSince(new Date().toISOString()));
    const first = (await write.get(`/products/${id}`)).body.data;
    expect({ ageRestriction: first.ageRestriction, minimumAge: first.minimumAge }).toEqual({ ageRestriction: true, minimumAge: 18 });
    await waitForSync(write, drainedSince(new Date().toISOString()));
    expect((await write.get(`/products/${id}`)).body.data.lastupdate).toBe(first.lastupdate);

    const beer = await write.post('/products', { name: 'Bier', price: 250, taxCategory: '8.1', minimumAge: 16 });
    expect(beer.status).toBe(200);
    const parked = await waitForSync(write, (s) => s.parked === 1);
    expect(parked.pending).toBe(0);
    const entries = (await write.get('/sync/parked')).body.data as { resourceId: string; message: string }[];
    expect(entries).toEqual([expect.objectContaining({ resourceId: beer.body.id, message: expect.stringContaining('minimumAge: is not a writable field') })]);
  });
});
