import { once } from 'node:events';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import type { CrashInstant } from '../main/system/crash-point.js';
import { api, collectPages } from './support/api.js';
import { startChildServer, type ChildServer } from './support/child-server.js';
import { startFaultProxy } from './support/fault-proxy.js';
import { freePort } from './support/processes.js';
import { makeDataDir, startTestServer, type TestServer } from './support/server.js';
import { FAST_SYNC, configureSync, drainedSince, waitForSync } from './support/sync.js';
import { startSyncPair } from './support/sync-pair.js';

const running: (ChildServer | TestServer)[] = [];
afterAll(async () => {
  for (const server of running.splice(0)) await ('crash' in server ? server.crash() : server.destroy());
});

/** An upstream in its own process, with an organization made before it starts. */
function upstreamDataDir(): { dataDir: string; writeKey: string } {
  const dataDir = makeDataDir();
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'HQ', features: [] });
  db.close();
  return { dataDir, writeKey: org.writeKey };
}

describe('a power cut of the upstream while it answers a pushed creation (field condition 7)', () => {
  it.each<CrashInstant>(['before-answer-kept', 'before-answer-sent'])('at %s creates the record once after the restart', async (instant) => {
    const upstream = upstreamDataDir();
    const port = await freePort();
    const first = await startChildServer(upstream.dataDir, port, { STORE_SERVER_CRASH_AT: instant });
    const gone = once(first.child, 'exit');
    // The upstream keeps its port across the restart, so the proxy in front of it stays.
    const proxy = await startFaultProxy(first.url);
    const local = await startTestServer({ sync: FAST_SYNC });
    running.push(local);
    const org = local.createOrg();
    configureSync(local, org.id, { url: proxy.url, key: upstream.writeKey });
    const write = api(local.url, org.writeKey);
    expect((await write.post('/categories', { name: 'Brot' })).status).toBe(200);
    // The first keyed POST the upstream answers kills it at the instant named.
    await gone;

    const since = new Date().toISOString();
    const second = await startChildServer(upstream.dataDir, port);
    running.push(second);
    await waitForSync(write, drainedSince(since), 30_000);
    const up = api(second.url, upstream.writeKey);
    expect((await collectPages(up, '/categories')).items.map((c) => c.name)).toEqual(['Brot']);
    expect((await write.get('/sync')).body.data).toMatchObject({ pending: 0, parked: 0 });
    await proxy.close();
  });
});

describe('a pushed mark lost in a power cut, then the store PC off for more than 24 hours (field condition 7)', () => {
  it('replays the creation upstream instead of making it twice', async () => {
    const pair = await startSyncPair();
    running.push(pair.local, pair.upstream);
    const { write, up } = pair;
    expect((await write.post('/categories', { name: 'Käse' })).status).toBe(200);
    await waitForSync(write, drainedSince(new Date().toISOString()));

    // What the power cut leaves: the mark and the id mapping committed without an fsync are gone.
    const local = openDatabase(join(pair.local.dataDir, DATABASE_FILE));
    local.prepare("UPDATE outbox SET state = 'pending', done_at = NULL, upstream_status = NULL WHERE resource = 'category'").run();
    local.prepare("DELETE FROM sync_ids WHERE kind = 'category'").run();
    local.close();
    // What the days switched off leave: every answer the upstream kept is 25 hours older.
    const upstream = openDatabase(join(pair.upstream.dataDir, DATABASE_FILE));
    upstream
      .prepare("UPDATE idempotency_keys SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', created_at, '-25 hours'), expires_at = strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, '-25 hours')")
      .run();
    upstream.close();

    expect((await write.post('/suppliers', { name: 'Alpkäserei' })).status).toBe(200);
    await waitForSync(write, drainedSince(new Date().toISOString()));
    expect((await collectPages(up, '/categories')).items.map((c) => c.name)).toEqual(['Käse']);
    expect((await write.get('/sync')).body.data).toMatchObject({ pending: 0, parked: 0 });
    await pair.proxy.close();
  });
});
