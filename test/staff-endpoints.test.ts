import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../main/storage/database.js';
import { VERSION } from '../main/version.js';
import { api } from './support/api.js';
import { runCli } from './support/cli.js';
import { standardError } from './support/shapes.js';
import { waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
beforeAll(async () => {
  pair = await startSyncPair({ features: ['barcode-aliases'] });
  // The upstream organization lacks barcode aliases: it refuses products that carry them.
  await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
});
afterAll(async () => {
  await pair.destroy();
});

/** Creates a product the upstream refuses and waits until its entry is parked; returns the entry id. */
async function parkOne(code: string): Promise<number> {
  const res = await pair.write.post('/products', { name: 'Wasser 6er', price: 600, taxCategory: '2.6', barcode: code, barcodeAliases: [{ code: `${code}-6`, quantity: 6 }] });
  expect(res.status).toBe(200);
  await waitForSync(pair.write, (s) => s.state === 'idle' && s.parked > 0);
  const parked = (await pair.write.get('/sync/parked')).body.data as { id: number; resourceId: string }[];
  const entry = parked.find((p) => p.resourceId === res.body.id);
  if (!entry) throw new Error(`product ${res.body.id} was not parked: ${JSON.stringify(parked)}`);
  return entry.id;
}

describe('POST /sync/parked/{entryId}/retry and /discard', () => {
  it('refuse a read key, a missing key, a bad id and an entry that is not parked', async () => {
    const read = api(pair.local.url, pair.org.readKey);
    for (const action of ['retry', 'discard']) {
      expect((await read.post(`/sync/parked/1/${action}`)).body).toEqual(standardError(403, 'Forbidden'));
      expect((await api(pair.local.url).post(`/sync/parked/1/${action}`)).body).toEqual(standardError(403, 'Forbidden'));
      expect((await pair.write.post(`/sync/parked/abc/${action}`)).body).toEqual(
        standardError(400, 'entryId: must be a whole number as GET /sync/parked lists it, not "abc"'),
      );
      expect((await pair.write.post(`/sync/parked/999999/${action}`)).body).toEqual(standardError(404, 'Parked entry "999999" not found'));
    }
  });

  it('retry puts the entry back in the queue, and it goes through once the upstream accepts it', async () => {
    const id = await parkOne('retry-1');
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--enable', 'barcode-aliases', '--json']);
    const res = await pair.write.post(`/sync/parked/${id}/retry`);
    expect([res.status, res.body]).toEqual([200, { data: { retried: 1 } }]);
    await waitForSync(pair.write, (s) => s.state === 'idle' && s.pending === 0 && s.parked === 0);
    expect((await pair.up.get('/products?barcode=retry-1')).body.data).toHaveLength(1);
    await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
  });

  it("discard gives the entry up for good, keeping the outbox's record of it", async () => {
    const id = await parkOne('discard-1');
    const res = await pair.write.post(`/sync/parked/${id}/discard`);
    expect([res.status, res.body]).toEqual([200, { data: { discarded: 1 } }]);
    expect((await pair.write.get('/sync/parked')).body.data.some((p: { id: number }) => p.id === id)).toBe(false);
    expect(pair.local.sqlite().prepare('SELECT state FROM outbox WHERE seq = ?').get(id)).toEqual({ state: 'discarded' });
    expect((await pair.write.post(`/sync/parked/${id}/discard`)).status).toBe(404);
  });
});

describe('GET /system', () => {
  it('answers the version, the database size and the disk space, to any key', async () => {
    const file = join(pair.local.dataDir, DATABASE_FILE);
    const res = await api(pair.local.url, pair.org.readKey).get('/system');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: { version: VERSION, databaseBytes: expect.any(Number), diskFreeBytes: expect.any(Number), diskTotalBytes: expect.any(Number), tlsFingerprint: null },
    });
    const { databaseBytes, diskFreeBytes, diskTotalBytes } = res.body.data;
    expect(databaseBytes).toBeGreaterThanOrEqual(statSync(file).size);
    expect(diskFreeBytes).toBeGreaterThan(0);
    expect(diskTotalBytes).toBeGreaterThanOrEqual(diskFreeBytes);
    expect((await api(pair.local.url).get('/system')).body).toEqual(standardError(403, 'Forbidden'));
  });
});
