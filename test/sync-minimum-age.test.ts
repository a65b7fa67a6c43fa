import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainedSince, waitForSync } from './support/sync.js';
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
