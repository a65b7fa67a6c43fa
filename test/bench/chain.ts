import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { DEFAULT_INTERVAL_SECONDS } from '../../main/sync/sync-admin.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { FULL_SIZE, generateCatalog } from './catalog.js';
import { chainClient, simulateStore, type ChainClient, type Collection, type Recorder } from './chain-store.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, cpuMs, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:chain`: one upstream (this server, started as `npm start`
 * does) and a chain of simulated store PCs in this process, each selling
 * every 10 s and pulling on the sync worker's default interval. The chain
 * doubles from step to step until the upstream's p99 for pushes or pulls
 * passes 100 ms, or the largest step has run. Loopback only.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PRODUCTS = env('BENCH_CHAIN_PRODUCTS', 20_000);
const FIRST_STEP = env('BENCH_CHAIN_STORES', 200);
const MAX_STORES = env('BENCH_CHAIN_MAX_STORES', 6400);
const STEP_SECONDS = env('BENCH_CHAIN_STEP_SECONDS', 60);
/** Seconds each step runs before it is measured: connections open and the stores' cycles spread out. */
const WARMUP_SECONDS = env('BENCH_CHAIN_WARMUP_SECONDS', 5);
/** Time compression: every cadence runs this many times faster, so N simulated stores load the upstream as N x SPEEDUP would. */
const SPEEDUP = env('BENCH_CHAIN_SPEEDUP', 1);
const SALE_SECONDS = 10;
const PULL_SECONDS = env('BENCH_CHAIN_PULL_SECONDS', DEFAULT_INTERVAL_SECONDS);
/** Catalog changes HQ makes per minute (price changes), which every store's next pull brings in. */
const HQ_CHANGES_PER_MINUTE = env('BENCH_CHAIN_HQ_CHANGES_PER_MINUTE', 6);
const P99_LIMIT_MS = 100;
/** Run every step up to the largest even past the limit, to see how the upstream's CPU grows with the chain on a machine too busy for latencies. */
const EVERY_STEP = process.env.BENCH_CHAIN_EVERY_STEP === '1';
const log = (text: string) => process.stdout.write(text + '\n');

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-chain-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;

log(`Upstream catalog of ${PRODUCTS} products…`);
const db = openDatabase(join(dir, DATABASE_FILE), { synchronous: 'NORMAL' });
const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Chain', features: [] });
const catalog = generateCatalog(db, org.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0, stores: 1 });
db.close();

const { command, args } = buildAndGetStartCommand();
const upstream = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, PROJECT_ROOT);
await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 60_000, 'the upstream answering');
const pid = upstream.child.pid!;
const client = chainClient(base, org.writeKey);

/** The pulled collections as the upstream's OpenAPI document describes their lists: change feed or not, largest page. */
async function collections(): Promise<Collection[]> {
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string; in: string; schema?: { maximum?: number } }[] } }>;
  };
  return ['/stores', '/suppliers', '/categories', '/products'].map((path) => {
    const entry = Object.entries(document.paths).find(([key]) => key === path || key.endsWith(`/v1${path}`))?.[1];
    const parameters = entry?.get?.parameters ?? [];
    const limit = parameters.find((p) => p.name === 'limit' && p.in === 'query')?.schema?.maximum ?? 1000;
    return { path, feed: parameters.some((p) => p.name === 'updatedSince' && p.in === 'query'), limit };
  });
}
const pulled = await collections();
log(`Change feed offered for: ${pulled.filter((c) => c.feed).map((c) => c.path).join(', ') || 'none'}; read whole on every pull: ${pulled.filter((c) => !c.feed).map((c) => c.path).join(', ') || 'none'}.`);

const storeIds: string[] = [];
/** Opens stores upstream until the chain has `count`, as HQ would for new branches. */
async function openStores(count: number): Promise<void> {
  while (storeIds.length < count) {
    const batch = Array.from({ length: Math.min(32, count - storeIds.length) }, (_, i) => storeIds.length + i);
    const created = await Promise.all(batch.map((n) => client.send('POST', '/stores', { name: `Filiale ${n + 1}` })));
    for (const answer of created) {
      const id = (answer.body as { id?: string } | undefined)?.id;
      if (answer.status !== 200 || !id) throw new Error(`POST /stores answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      storeIds.push(id);
    }
  }
}

interface StepResult {
  stores: number;
  seconds: number;
  recorder: Recorder;
  upstreamCores: number;
  simCores: number;
}

/** `stores` simulated stores against `target` (the upstream, or the bare baseline) for one step; `target` runs as process `targetPid`. */
async function runStep(stores: number, target: ChainClient, targetPid: number, measuredSeconds = STEP_SECONDS): Promise<StepResult> {
  const recorder: Recorder = { pushMs: [], pullMs: [], errors: {}, rows: 0 };
  const inFlight = new Set<Promise<unknown>>();
  const now = await target.send('GET', '/health');
  const sims = storeIds.slice(0, stores).map((storeId) =>
    simulateStore({
      client: target,
      storeId,
      keyPrefix: `chain-${stores}`,
      productIds: catalog.productIds,
      collections: pulled,
      saleMs: (SALE_SECONDS * 1000) / SPEEDUP,
      pullMs: (PULL_SECONDS * 1000) / SPEEDUP,
      pulledAt: now.upstreamTime,
      recorder,
      inFlight,
    }),
  );
  const hq = setInterval(() => {
    const product = catalog.productIds[Math.floor(Math.random() * catalog.productIds.length)]!;
    void target.send('POST', `/products/${product}`, { price: 100 + Math.floor(Math.random() * 900) });
  }, 60_000 / SPEEDUP / Math.max(1e-9, HQ_CHANGES_PER_MINUTE));
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  Object.assign(recorder, { pushMs: [], pullMs: [], errors: {}, rows: 0 });
  const cpuBefore = cpuMs(targetPid);
  const simBefore = process.cpuUsage();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, measuredSeconds * 1000));
  for (const sim of sims) sim.stop();
  clearInterval(hq);
  await Promise.all(inFlight);
  const seconds = (performance.now() - started) / 1000;
  const sim = process.cpuUsage(simBefore);
  recorder.pushMs.sort((a, b) => a - b);
  recorder.pullMs.sort((a, b) => a - b);
  return { stores, seconds, recorder, upstreamCores: (cpuMs(targetPid) - cpuBefore) / 1000 / seconds, simCores: (sim.user + sim.system) / 1e6 / seconds };
}

const p = (sorted: number[], q: number) => (sorted.length ? percentile(sorted, q).toFixed(1) : '–');
const results: StepResult[] = [];
let floor: StepResult | undefined;
try {
  await openStores(FIRST_STEP);
  const floorPort = await freePort();
  const bare = spawnProcess(process.execPath, ['--import', 'tsx', 'test/bench/chain-baseline.ts'], { PORT: String(floorPort) }, PROJECT_ROOT);
  const bareBase = `http://127.0.0.1:${floorPort}/api/v1`;
  await waitFor(async () => ((await fetch(`${bareBase}/health`)).ok ? true : undefined), 30_000, 'the bare baseline answering');
  const bareClient = chainClient(bareBase, org.writeKey);
  log(`Floor: ${FIRST_STEP} simulated stores against bare node:http for ${Math.ceil(STEP_SECONDS / 3)} s…`);
  floor = await runStep(FIRST_STEP, bareClient, bare.child.pid!, Math.ceil(STEP_SECONDS / 3));
  bareClient.close();
  await bare.stop();
  for (let stores = FIRST_STEP; stores <= MAX_STORES; stores *= 2) {
    log(`Step: ${stores} simulated stores${SPEEDUP === 1 ? '' : ` at ${SPEEDUP}x speed`} for ${STEP_SECONDS} s…`);
    await openStores(stores);
    const result = await runStep(stores, client, pid);
    results.push(result);
    if (!EVERY_STEP && (percentile(result.recorder.pushMs, 99) > P99_LIMIT_MS || percentile(result.recorder.pullMs, 99) > P99_LIMIT_MS)) break;
  }
} finally {
  client.close();
  await upstream.stop();
  rmSync(dir, { recursive: true, force: true });
}

log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; upstream of ${PRODUCTS} products, ${HQ_CHANGES_PER_MINUTE} price changes a minute by HQ.`);
log(
  `Each simulated store sells every ${SALE_SECONDS} s and pulls every ${PULL_SECONDS} s` +
    (SPEEDUP === 1 ? '.' : `, time-compressed ${SPEEDUP}x (every ${SALE_SECONDS / SPEEDUP} s and ${PULL_SECONDS / SPEEDUP} s): N simulated stores load the upstream as ${SPEEDUP} x N real ones.`),
);
log('\n| stores (equivalent) | sales/s offered / served | pull requests/s | rows pulled/s | upstream CPU (cores) | push p50 / p99 ms | pull p50 / p99 ms | errors | simulator CPU (cores) |');
log('|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const rate = (n: number) => (n / r.seconds).toFixed(1);
  log(
    `| ${r.stores * SPEEDUP} | ${((r.stores * SPEEDUP) / SALE_SECONDS).toFixed(1)} / ${rate(r.recorder.pushMs.length)} | ${rate(r.recorder.pullMs.length)} | ${rate(r.recorder.rows)} | ${r.upstreamCores.toFixed(2)} | ` +
      `${p(r.recorder.pushMs, 50)} / ${p(r.recorder.pushMs, 99)} | ${p(r.recorder.pullMs, 50)} / ${p(r.recorder.pullMs, 99)} | ${Object.values(r.recorder.errors).reduce((a, b) => a + b, 0)} | ${r.simCores.toFixed(2)} |`,
  );
}
if (floor) {
  log(
    `\nFloor in the same run (bare node:http answering the same calls at once, ${FIRST_STEP * SPEEDUP} stores): ` +
      `push p50 / p99 ${p(floor.recorder.pushMs, 50)} / ${p(floor.recorder.pushMs, 99)} ms, pull p50 / p99 ${p(floor.recorder.pullMs, 50)} / ${p(floor.recorder.pullMs, 99)} ms: ` +
      'what the machine and the simulator add to every request.',
  );
}
for (const r of results) {
  const errors = Object.entries(r.recorder.errors);
  if (errors.length) log(`Errors at ${r.stores * SPEEDUP} stores: ${errors.map(([what, n]) => `${n} x ${what}`).join(', ')}.`);
}
const passes = (r: StepResult) => percentile(r.recorder.pushMs, 99) <= P99_LIMIT_MS && percentile(r.recorder.pullMs, 99) <= P99_LIMIT_MS;
const firstOver = results.find((r) => !passes(r));
const within = results.filter((r) => passes(r) && (!firstOver || r.stores < firstOver.stores));
const carried = within.at(-1)?.stores ?? 0;
if (firstOver) {
  log(`\nOne upstream on ${cpus().length} cores carries ${carried * SPEEDUP} stores with p99 at or under ${P99_LIMIT_MS} ms; at ${firstOver.stores * SPEEDUP} its p99 passes it.`);
} else {
  log(`\nOne upstream on ${cpus().length} cores carries at least ${carried * SPEEDUP} stores with p99 at or under ${P99_LIMIT_MS} ms (the largest step run; raise BENCH_CHAIN_MAX_STORES or BENCH_CHAIN_SPEEDUP to find the limit).`);
}
const busiest = results.reduce<StepResult | undefined>((a, r) => (a && a.upstreamCores >= r.upstreamCores ? a : r), undefined);
if (busiest && busiest.upstreamCores > 0) {
  const perStore = busiest.upstreamCores / (busiest.stores * SPEEDUP);
  log(
    `Upstream CPU per store: ${(perStore * 1000).toFixed(2)} ms a second (step of ${busiest.stores * SPEEDUP}); ` +
      `${cpus().length} cores would be saturated at about ${Math.floor(cpus().length / perStore)} stores (an extrapolation from CPU alone: ` +
      'every sale is a commit with its own fsync, and the time the upstream waits for the disk is not CPU; served below offered means it is saturated).',
  );
}
log('The simulator shares the cores with the upstream (its own CPU is in the last column), and so does anything else running on the machine.');
