import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { createSyncConfigStore } from '../../main/sync/config-store.js';
import { DEFAULT_PULL_INTERVAL_SECONDS } from '../../main/sync/config-store.js';
import { DEFAULT_INTERVAL_SECONDS } from '../../main/sync/sync-admin.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { FULL_SIZE, generateCatalog } from './catalog.js';
import { startCountingProxy, trafficSince } from './counting-proxy.js';
import { percentile, timeSequential } from './load.js';
import { freePort } from '../support/processes.js';
import { buildAndGetStartCommand, rssMb, spawnProcess, waitFor } from './server-process.js';
import { runSteadyState } from './steady-state.js';
import { openSecretBox } from '../../main/security/secret-box.js';

/**
 * `npm run bench:sync`: a store PC against an upstream, both real servers in
 * their own processes, a counting proxy between them. Drains queued orders,
 * then pulls the upstream's catalog while reads go on, next to baselines
 * measured in the same run; then sells one item a second with nothing
 * changed upstream (steady state) and counts what sync costs per sale.
 * The store PC runs with the default sync settings.
 */
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const STEADY_SECONDS = Number(process.env.BENCH_STEADY_SECONDS ?? 120);
const SALE_INTERVAL_MS = Number(process.env.BENCH_SALE_INTERVAL_MS ?? 1000);
const log = (text: string) => process.stdout.write(text + '\n');

const upDir = mkdtempSync(join(tmpdir(), 'retail-bench-up-'));
const localDir = mkdtempSync(join(tmpdir(), 'retail-bench-local-'));
const upPort = await freePort();
const localPort = await freePort();
const upBase = `http://127.0.0.1:${upPort}/api/v1`;
const localBase = `http://127.0.0.1:${localPort}/api/v1`;
const proxy = await startCountingProxy(upBase);

log(`Upstream catalog of ${PRODUCTS} products; ${ORDERS} orders queued on the store PC…`);
const upDb = openDatabase(join(upDir, DATABASE_FILE), { synchronous: 'NORMAL' });
const upOrg = createServices({ db: upDb, clock: systemClock }).organizations.create({ name: 'Upstream', features: ['barcode-aliases'] });
const upCatalog = generateCatalog(upDb, upOrg.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0 });
upDb.close();

const localDb = openDatabase(join(localDir, DATABASE_FILE), { synchronous: 'NORMAL' });
const local = createServices({ db: localDb, clock: systemClock });
const org = local.organizations.create({ name: 'Store', features: ['barcode-aliases'] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: ['barcode-aliases'] };
const store = local.retailStores.create(caller, { name: 'Filiale' });
const product = local.products.create(caller, { name: 'Milch', price: 150, taxCategory: '2.6', barcode: 'bench-milk' });
for (let i = 0; i < ORDERS; i += 1) local.orders.create(caller, { store, products: [{ productId: product, quantity: 1 + (i % 3) }] });
createSyncConfigStore(localDb, openSecretBox(localDir)).configure(org.id, { url: proxy.url, key: upOrg.writeKey, intervalSeconds: DEFAULT_INTERVAL_SECONDS }, new Date().toISOString());
localDb.close();

const { command, args } = buildAndGetStartCommand();
const start = (dir: string, port: number) =>
  spawnProcess(command, args, { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, PROJECT_ROOT);
const healthy = (base: string) => async () => ((await fetch(`${base}/health`)).ok ? true : undefined);

const upstream = start(upDir, upPort);
await waitFor(healthy(upBase), 60_000, 'the upstream answering');

// Baseline: the same order creations sent straight to the upstream, one after another.
const BASELINE = 1000;
const upStore = upCatalog.storeIds[0]!;
const upProduct = upCatalog.productIds[0]!;
const direct = await timeSequential(BASELINE, async () => {
  const res = await fetch(`${upBase}/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${upOrg.writeKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ store: upStore, products: [{ productId: upProduct, quantity: 1, title: 'x', price: 100, taxRate: 0.026, deposit: 0 }] }),
  });
  if (res.status !== 200) throw new Error(`baseline POST /orders: ${res.status} ${await res.text()}`);
});
const directRate = BASELINE / (direct.reduce((a, b) => a + b, 0) / 1000);

const localServer = start(localDir, localPort);
await waitFor(healthy(localBase), 60_000, 'the store PC answering');
const pid = localServer.child.pid!;
const started = performance.now();
const status = async () =>
  ((await (await fetch(`${localBase}/sync`, { headers: { authorization: `Bearer ${org.readKey}` } })).json()) as { data: { pending: number; lastPullAt: string | null; state: string } }).data;

let drained = 0;
for (;;) {
  const s = await status();
  if (s.pending === 0) break;
  await new Promise((r) => setTimeout(r, 20));
}
drained = (performance.now() - started) / 1000;

/** Reads of one product by id from 4 concurrent loops until `until()` holds; latencies in ms. */
async function readLatencies(until: () => boolean, minMs: number): Promise<number[]> {
  const times: number[] = [];
  const ends = performance.now() + minMs;
  const loop = async () => {
    while (!until() || performance.now() < ends) {
      const t = performance.now();
      const res = await fetch(`${localBase}/products/${product}`, { headers: { authorization: `Bearer ${org.readKey}` } });
      await res.arrayBuffer();
      times.push(performance.now() - t);
      if (until() && performance.now() >= ends) break;
    }
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  return times.sort((a, b) => a - b);
}

const beforePull = proxy.traffic();
const pullStarted = performance.now();
let pulled = false;
let peakRss = rssMb(pid);
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb(pid));
}, 100);
const watcher = (async () => {
  while ((await status()).lastPullAt === null) await new Promise((r) => setTimeout(r, 50));
  pulled = true;
})();
const duringPull = await readLatencies(() => pulled, 0);
await watcher;
const pullSeconds = (performance.now() - pullStarted) / 1000;
const fullPull = trafficSince(beforePull, proxy.traffic());
clearInterval(sampler);
const idle = await readLatencies(() => true, 3000);

log(`Steady state: one sale every ${SALE_INTERVAL_MS} ms for ${STEADY_SECONDS} s…`);
const steady = await runSteadyState({
  localBase,
  readKey: org.readKey,
  writeKey: org.writeKey,
  pid,
  proxy,
  store,
  productIds: upCatalog.productIds.slice(0, 1000),
  seconds: STEADY_SECONDS,
  saleIntervalMs: SALE_INTERVAL_MS,
  drainTimeoutMs: 120_000,
});

await localServer.stop();
await upstream.stop();
await proxy.close();
rmSync(upDir, { recursive: true, force: true });
rmSync(localDir, { recursive: true, force: true });

const drainRate = ORDERS / drained;
const p99Pull = percentile(duringPull, 99);
const p99Idle = percentile(idle, 99);
const row = (figure: string, value: string, baseline: string, ratio: string, target: string) =>
  `| ${figure} | ${value} | ${baseline} | ${ratio} | ${target} |`;
log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);
log('\n| figure | measured | baseline (same run) | ratio | target |\n|---|---|---|---|---|');
log(row(`drain ${ORDERS} queued orders`, `${drainRate.toFixed(0)} orders/s (${drained.toFixed(1)} s)`, `${directRate.toFixed(0)} orders/s sent directly`, `${(drainRate / directRate).toFixed(2)}`, '≥ 200 orders/s'));
log(row(`pull ${PRODUCTS} products`, `${pullSeconds.toFixed(1)} s, peak RSS ${peakRss.toFixed(0)} MB`, '–', '–', '< 60 s'));
log(row('GET /products/{id} p99 during the pull', `${p99Pull.toFixed(1)} ms (${duringPull.length} reads)`, `${p99Idle.toFixed(1)} ms idle`, `${(p99Pull / p99Idle).toFixed(2)}`, '≤ 3 × idle'));

const perSale = (value: number) => value / Math.max(1, steady.sales);
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const steadyRow = (figure: string, value: string, target: string, met: boolean) => `| ${figure} | ${value} | ${target} | ${met ? 'met' : 'missed'} |`;
log(`\nFull pull of ${PRODUCTS} products through the counting proxy: ${fullPull.requests} requests, ${(fullPull.bytes / 1e6).toFixed(1)} MB, ${fullPull.productRows} product rows.`);
log(
  `\nSteady state: ${steady.sales} sales (one every ${SALE_INTERVAL_MS} ms) against ${PRODUCTS} products unchanged upstream, ` +
    `${steady.seconds.toFixed(0)} s from the first sale until the last was pushed${steady.drained ? '' : ' (the queue had not drained: figures are a lower bound)'}; ` +
    `push interval ${DEFAULT_INTERVAL_SECONDS} s, pull interval ${DEFAULT_PULL_INTERVAL_SECONDS} s (the defaults). Totals: ${steady.traffic.requests} requests, ${(steady.traffic.bytes / 1e6).toFixed(2)} MB, ${steady.traffic.productRows} product rows.`,
);
const cpuPerMinute = steady.cpuSeconds / (steady.seconds / 60);
log('\n| steady-state figure | measured | target | |\n|---|---|---|---|');
log(steadyRow('upstream requests per sale (pulls included)', perSale(steady.traffic.requests).toFixed(2), '≤ 2', perSale(steady.traffic.requests) <= 2));
log(steadyRow('upstream bytes per sale (both ways, pulls included)', kb(perSale(steady.traffic.bytes)), '≤ 5 KB', perSale(steady.traffic.bytes) <= 5 * 1024));
log(steadyRow('product rows read per sale', perSale(steady.traffic.productRows).toFixed(0), '0 (nothing changed upstream)', steady.traffic.productRows === 0));
log(steadyRow('store server CPU per minute of sync (sales served included)', `${cpuPerMinute.toFixed(2)} s`, '≤ 1 s', cpuPerMinute <= 1));
