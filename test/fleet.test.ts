import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetState } from '../main/rules/fleet-state.js';
import { VERSION } from '../main/version.js';
import { api, type Api } from './support/api.js';
import { runCli } from './support/cli.js';
import { startFaultProxy } from './support/fault-proxy.js';
import { startTestServer } from './support/server.js';
import { drainedSince, FAST_SYNC, configureSync, waitForSync } from './support/sync.js';
import { startSyncPair, type SyncPair } from './support/sync-pair.js';

let pair: SyncPair;
let read: Api;
let device: string;
let upStore: string;
const started = new Date().toISOString();

/** Polls `GET /fleet` on the upstream until `done` holds for the device's row. */
async function fleetRow(done: (row: any) => boolean, query = ''): Promise<any> {
  const ends = Date.now() + 20_000;
  let last: unknown;
  while (Date.now() < ends) {
    const res = await read.get(`/fleet${query}`);
    expect(res.status).toBe(200);
    last = res.body.data;
    const row = res.body.data.find((d: any) => d.device === device);
    if (row && done(row)) return row;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`GET /fleet did not get there: ${JSON.stringify(last)}`);
}

beforeAll(async () => {
  pair = await startSyncPair({ features: ['barcode-aliases'], pullIntervalSeconds: 1 });
  read = api(pair.upstream.url, pair.upOrg.readKey);
  device = pair.local.sqlite().prepare('SELECT id FROM installation').pluck().get() as string;
  // The upstream organization lacks barcode aliases: it refuses products that carry them.
  const disabled = await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, '--disable', 'barcode-aliases', '--json']);
  expect(disabled.status, disabled.stderr).toBe(0);
});
afterAll(async () => {
  await pair.destroy();
});

describe('the fleet of an upstream', () => {
  it('lists a store PC syncing with it: its version, its queue, its stores and a recent lastSeenAt', async () => {
    const store = (await pair.write.post('/stores', { name: 'Filiale Bern' })).body.id as string;
    const sold = await pair.write.post('/orders', { store, orderDate: '2026-11-20T09:30:00.000Z', products: [{ productId: 'x', quantity: 1, title: 'Brot', price: 450, taxRate: 0.026 }] });
    expect(sold.status).toBe(200);
    await waitForSync(pair.write, drainedSince(started));
    upStore = pair.local.sqlite().prepare("SELECT upstream_id FROM sync_ids WHERE kind = 'store' AND local_id = ?").pluck().get(store) as string;
    const row = await fleetRow((d) => d.lastSaleAt !== null && d.stores.length === 1);
    expect(row).toEqual({
      device,
      name: hostname(),
      version: VERSION,
      stores: [upStore],
      lastSeenAt: expect.any(String),
      lastPushAt: expect.any(String),
      lastPullAt: expect.any(String),
      pending: 0,
      parked: 0,
      oldestPendingAt: null,
      lastSaleAt: '2026-11-20T09:30:00.000Z',
      printers: [],
      alerts: [],
      // No mail server on the PC and an upstream: the upstream mails its alerts.
      mailsAlerts: false,
      diskFreeBytes: expect.any(Number),
      databaseBytes: expect.any(Number),
      state: 'ok',
      offlineSince: null,
    });
    expect(row.lastSeenAt >= started && row.lastSeenAt <= new Date().toISOString()).toBe(true);
    expect(row.diskFreeBytes).toBeGreaterThan(0);
    expect(row.databaseBytes).toBeGreaterThan(0);
  });

  it('shows a PC whose sales wait as behind, and one with a parked entry as parked', async () => {
    pair.proxy.setMode('error', { only: (method, path) => method === 'POST' && path.startsWith('/orders') });
    const store = pair.local.sqlite().prepare('SELECT id FROM stores LIMIT 1').pluck().get() as string;
    await pair.write.post('/orders', { store, products: [{ productId: 'x', quantity: 1, title: 'Brot', price: 450, taxRate: 0.026 }] });
    const behind = await fleetRow((d) => d.pending === 1 && d.state === 'behind', '?behindSeconds=1');
    expect(behind.oldestPendingAt).toEqual(expect.any(String));
    expect((await read.get('/fleet')).body.data[0].state).toBe('ok');
    pair.proxy.setMode('pass');

    const refusedUpstream = await pair.write.post('/products', { name: 'Wasser', price: 600, taxCategory: '2.6', barcode: 'fleet-6', barcodeAliases: [{ code: 'fleet-6x', quantity: 6 }] });
    expect(refusedUpstream.status).toBe(200);
    const parked = await fleetRow((d) => d.parked === 1 && d.pending === 0);
    expect(parked.state).toBe('parked');
  });

  it('answers 400 on a bad threshold or heartbeat, and 403 to a read key on a write', async () => {
    const bad = await read.get('/fleet?offlineSeconds=soon');
    expect(bad.status).toBe(400);
    expect(bad.body.error.fieldErrors.offlineSeconds).toBeDefined();
    const up = api(pair.upstream.url, pair.upOrg.writeKey);
    const missing = await up.post('/fleet/heartbeat', { device: 'abcdefgh12345678' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/name: is required/);
    expect((await read.post('/fleet/heartbeat', {})).status).toBe(403);
    expect((await read.delete(`/fleet/${device}`)).status).toBe(403);
  });

  it('prints the fleet with the CLI', async () => {
    const json = await runCli(pair.upstream.dataDir, ['fleet', pair.upOrg.id, '--json']);
    expect(json.status).toBe(0);
    expect(json.json.map((d: any) => [d.device, d.version])).toEqual([[device, VERSION]]);
    const table = await runCli(pair.upstream.dataDir, ['fleet', pair.upOrg.id]);
    expect(table.stdout.split('\n')[0]).toMatch(/^name +device +version +state +last seen +pending +parked +printers +disk free$/);
    expect(table.stdout).toContain(device.slice(0, 8));
  });

  it('keeps a PC that stopped reporting as offline until staff remove it', async () => {
    const last = await fleetRow(() => true);
    await pair.local.stop();
    const offline = await fleetRow((d) => d.state === 'offline', '?offlineSeconds=1');
    expect(offline.offlineSince).toBe(offline.lastSeenAt);
    expect(offline.lastSeenAt >= last.lastSeenAt).toBe(true);
    const up = api(pair.upstream.url, pair.upOrg.writeKey);
    expect(await up.delete(`/fleet/${device}`)).toMatchObject({ status: 200, body: { success: true } });
    expect((await read.get('/fleet')).body.data).toEqual([]);
    const again = await up.delete(`/fleet/${device}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`Device "${device}" not found`);
  });
});

describe("a store PC's reports between two pulls", () => {
  it("add no call to a sale's push, and go at once when an entry is parked", async () => {
    const quiet = await startSyncPair({ features: ['barcode-aliases'], pullIntervalSeconds: 3600 });
    try {
      await runCli(quiet.upstream.dataDir, ['org', 'features', quiet.upOrg.id, '--disable', 'barcode-aliases', '--json']);
      const store = (await quiet.write.post('/stores', { name: 'Filiale Thun' })).body.id as string;
      await waitForSync(quiet.write, (s) => s.pending === 0 && s.state === 'idle' && s.lastPullAt !== null);
      const upRead = api(quiet.upstream.url, quiet.upOrg.readKey);
      const seen = async () => ((await upRead.get('/fleet')).body.data as { lastSeenAt: string; parked: number }[])[0];
      const ends = Date.now() + 20_000;
      // The first round pulled, and reported.
      while ((await seen()) === undefined && Date.now() < ends) await new Promise((r) => setTimeout(r, 25));
      const before = await seen();
      expect(before).toBeDefined();
      const called: string[] = [];
      // Every call is noted; none is failed.
      quiet.proxy.setMode('error', { only: (method, path) => (called.push(`${method} ${path}`), false) });
      const reports = () => called.filter((c) => c === 'POST /fleet/heartbeat').length;
      // Well after the report: what holds the next one back is the pull interval, not a short pause.
      await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(before!.lastSeenAt) + 11_000 - Date.now())));

      for (let n = 0; n < 3; n += 1) {
        const since = new Date().toISOString();
        expect((await quiet.write.post('/orders', { store, products: [{ productId: `x-${n}`, quantity: 1, title: 'Brot', price: 450, taxRate: 0.026 }] })).status).toBe(200);
        await waitForSync(quiet.write, drainedSince(since));
      }
      expect(called.filter((c) => c === 'POST /orders')).toHaveLength(3);
      expect(reports()).toBe(0);
      expect(await seen()).toEqual(before);

      await quiet.write.post('/products', { name: 'Wasser', price: 600, taxCategory: '2.6', barcode: 'quiet-6', barcodeAliases: [{ code: 'quiet-6x', quantity: 6 }] });
      await waitForSync(quiet.write, (s) => s.parked === 1);
      const parkedBy = Date.now() + 20_000;
      while ((await seen())?.parked !== 1 && Date.now() < parkedBy) await new Promise((r) => setTimeout(r, 25));
      expect((await seen())?.parked).toBe(1);
      expect(reports()).toBe(1);
    } finally {
      await quiet.destroy();
    }
  });
});

describe('the state of a device', () => {
  const now = new Date('2026-11-25T12:00:00.000Z');
  const limits = { behindMs: 900_000, offlineMs: 600_000 };
  const ok = { lastSeenAt: '2026-11-25T11:59:00.000Z', parked: 0, oldestPendingAt: null, version: '1.10.0' };
  it.each([
    ['ok', ok, '1.10.0'],
    ['outdated', ok, '1.10.1'],
    ['ok', ok, '1.9.9'],
    ['behind', { ...ok, oldestPendingAt: '2026-11-25T11:44:59.000Z' }, '1.10.1'],
    ['ok', { ...ok, oldestPendingAt: '2026-11-25T11:45:00.000Z' }, '1.10.0'],
    ['parked', { ...ok, parked: 1, oldestPendingAt: '2026-11-25T10:00:00.000Z' }, '2.0.0'],
    ['offline', { ...ok, parked: 1, lastSeenAt: '2026-11-25T11:49:59.000Z' }, '2.0.0'],
  ] as const)('%s', (state, device, latest) => {
    expect(fleetState(device, now, limits, latest)).toBe(state);
  });
});

describe('an upstream without the fleet extension', () => {
  it('is told nothing', async () => {
    const upstream = await startTestServer();
    const local = await startTestServer({ sync: FAST_SYNC });
    try {
      const upOrg = upstream.createOrg();
      const org = local.createOrg();
      // 404 to /openapi.json: a v1-only upstream. Every path the store PC calls is noted.
      const proxy = await startFaultProxy(upstream.url);
      const called: string[] = [];
      proxy.setMode('missing', { only: (method, path) => (called.push(`${method} ${path}`), path === '/openapi.json') });
      try {
        configureSync(local, org.id, { url: proxy.url, key: upOrg.writeKey, pullIntervalSeconds: 1 });
        const write = api(local.url, org.writeKey);
        await write.post('/stores', { name: 'Laden' });
        const first = await waitForSync(write, (s) => s.pending === 0 && s.state === 'idle' && s.lastPullAt !== null);
        await waitForSync(write, (s) => s.state === 'idle' && s.lastPullAt > first.lastPullAt);
        expect(called).toContain('POST /stores');
        expect(called.filter((c) => c.includes('/fleet'))).toEqual([]);
        expect((await api(upstream.url, upOrg.readKey).get('/fleet')).body).toEqual({ data: [] });
      } finally {
        await proxy.close();
      }
    } finally {
      await local.destroy();
      await upstream.destroy();
    }
  });
});
