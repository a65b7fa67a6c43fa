import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { chainClient, type ChainClient } from './chain-store.js';
import { buildAndGetStartCommand, cpuMs, spawnProcess, waitFor } from './server-process.js';

/**
 * `npx tsx test/bench/chain-calls.ts`: the upstream's CPU time per call of
 * each kind a chain sends (an empty change-feed page of each pulled
 * collection, a fleet report, a pushed sale), one kind at a time with
 * `BENCH_CALLS_IN_FLIGHT` in flight, and `GET /health` for the request path
 * alone. `BENCH_SERVER_ROOT` measures another checkout's server, its data
 * folder made by its own code, so a before and an after run back to back.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CALLS = env('BENCH_CALLS', 3000);
const IN_FLIGHT = env('BENCH_CALLS_IN_FLIGHT', 8);
const STORES = 400;
const WARMUP_CALLS = 300;
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ?? PROJECT_ROOT;
const seed = {
  ...((await import(join(SERVER_ROOT, 'main/storage/database.js'))) as typeof import('../../main/storage/database.js')),
  ...((await import(join(SERVER_ROOT, 'main/services/index.js'))) as typeof import('../../main/services/index.js')),
  ...((await import(join(SERVER_ROOT, 'main/services/clock.js'))) as typeof import('../../main/services/clock.js')),
  ...((await import(join(SERVER_ROOT, 'test/bench/catalog.js'))) as typeof import('./catalog.js')),
};

const { command, args } = buildAndGetStartCommand(SERVER_ROOT);
const dir = mkdtempSync(join(tmpdir(), 'retail-bench-calls-'));
const db = seed.openDatabase(join(dir, seed.DATABASE_FILE), { synchronous: 'NORMAL' });
const org = seed.createServices({ db, clock: seed.systemClock }).organizations.create({ name: 'Calls', features: [] });
const { productIds } = seed.generateCatalog(db, org.id, { ...seed.FULL_SIZE, products: 20_000, orders: 0, stores: 1 });
db.pragma('wal_checkpoint(TRUNCATE)');
db.close();
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;
const upstream = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, SERVER_ROOT);
await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 60_000, 'the upstream answering');
const client: ChainClient = chainClient(base, org.writeKey);
const storeIds: string[] = [];
for (let n = 0; n < STORES; n++) storeIds.push(((await client.send('POST', '/stores', { name: `Filiale ${n + 1}` })).body as { id: string }).id);
// Every feed read starts after the stores' creation: empty pages, as a steady chain's pulls nearly always are.
await new Promise((resolve) => setTimeout(resolve, 1500));
const since = new Date().toISOString();

let sales = 0;
const report = (n: number) => {
  const now = new Date().toISOString();
  const state = { device: `bench-device-${n % STORES}`, name: 'kasse', version: '0.1.0', stores: [storeIds[n % STORES]!], lastPushAt: now, lastPullAt: now };
  const rest = { pending: 0, parked: 0, oldestPendingAt: null, lastSaleAt: now, printers: [{ name: '192.168.1.40:9100', state: 'ready' }], diskFreeBytes: 51_234_567_890, databaseBytes: 73_400_320 };
  return client.send('POST', '/fleet/heartbeat', { ...state, ...rest });
};
const sell = (n: number) => {
  sales += 1;
  const line = { productId: productIds[n % productIds.length]!, quantity: 1, title: 'Artikel', price: 100 + (sales % 500), taxRate: 0.081, deposit: 0 };
  const headers = { 'idempotency-key': `sync-bench-device-${n % STORES}-${sales}`, 'sync-acknowledged-below': String(sales) };
  return client.send('POST', '/orders', { store: storeIds[n % STORES], products: [line] }, headers);
};
const feed = (path: string) => () => client.send('GET', `${path}?limit=1000&updatedSince=${since}`);
const kinds: [string, (n: number) => Promise<{ status: number }>][] = [
  ['GET /health', () => client.send('GET', '/health')],
  ...['/stores', '/suppliers', '/categories', '/products'].map((path): [string, () => Promise<{ status: number }>] => [`GET ${path}?updatedSince= (empty)`, feed(path)]),
  ['POST /fleet/heartbeat', report],
  ['POST /orders (pushed sale)', sell],
];

process.stdout.write(`Server measured: ${SERVER_ROOT}; ${CALLS} calls of each kind, ${IN_FLIGHT} in flight.\n\n| call | upstream CPU per call (µs) | calls/s | failed |\n|---|---|---|---|\n`);
for (const [name, call] of kinds) {
  for (let n = 0; n < WARMUP_CALLS; n++) await call(n);
  const cpuBefore = cpuMs(upstream.child.pid!);
  const started = performance.now();
  let next = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CALLS) {
        const n = next++;
        if ((await call(n)).status !== 200) failed += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuMs(upstream.child.pid!) - cpuBefore;
  process.stdout.write(`| ${name} | ${((cpu * 1000) / CALLS).toFixed(0)} | ${(CALLS / seconds).toFixed(0)} | ${failed} |\n`);
}
client.close();
await upstream.stop();
rmSync(dir, { recursive: true, force: true });
