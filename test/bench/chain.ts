import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE } from '../../main/storage/database.js';
import { FEED_MARGIN_MS } from '../../main/services/change-feed.js';
import { DEFAULT_PULL_INTERVAL_SECONDS } from '../../main/sync/config-store.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { FULL_SIZE, type Catalog } from './catalog.js';
import { chainClient, simulateStore, type ChainClient, type Collection, type Recorder } from './chain-store.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, cpuMs, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:chain`: one upstream (this server, started as `npm start`
 * does) and a chain of simulated store PCs in this process, each selling
 * every 10 s and pulling on the sync worker's default interval. Each chain
 * size runs against a fresh upstream (its own data folder, catalog and
 * stores), so one size's new store records are not pulled by the next: what
 * is measured is a steady chain, not the ramp. Loopback only.
 */
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const PRODUCTS = env('BENCH_CHAIN_PRODUCTS', 20_000);
/** Chain sizes, each on a fresh upstream: `BENCH_CHAIN_SIZES=1600,3200,5000`. */
const SIZES = (process.env.BENCH_CHAIN_SIZES ?? '1600,3200,5000').split(',').map((n) => Number(n.trim())).filter((n) => n > 0);
/** Stores of the floor run against bare node:http. */
const FLOOR_STORES = env('BENCH_CHAIN_STORES', 200);
const STEP_SECONDS = env('BENCH_CHAIN_STEP_SECONDS', 60);
/** Seconds each step runs before it is measured: connections open and the stores' cycles spread out. */
const WARMUP_SECONDS = env('BENCH_CHAIN_WARMUP_SECONDS', 5);
/** Time compression: every cadence runs this many times faster, so N simulated stores load the upstream as N x SPEEDUP would. */
const SPEEDUP = env('BENCH_CHAIN_SPEEDUP', 1);
const SALE_SECONDS = 10;
const PULL_SECONDS = env('BENCH_CHAIN_PULL_SECONDS', DEFAULT_PULL_INTERVAL_SECONDS);
/** Catalog changes HQ makes per minute (price changes), which every store's next pull brings in. */
const HQ_CHANGES_PER_MINUTE = env('BENCH_CHAIN_HQ_CHANGES_PER_MINUTE', 6);
const P99_LIMIT_MS = 100;
/** A folder to write the upstream's CPU profile (node --cpu-prof) into, one per size. */
const CPU_PROFILE_DIR = process.env.BENCH_CHAIN_CPU_PROF;
const log = (text: string) => process.stdout.write(text + '\n');

/** Another checkout whose server is measured instead (the simulated stores stay this one's): a before and an after from one bench. */
const SERVER_ROOT = process.env.BENCH_SERVER_ROOT ?? PROJECT_ROOT;
const { command, args } = buildAndGetStartCommand(SERVER_ROOT);
/**
 * The upstream's data folder is made by the measured checkout's own code: an
 * older server refuses a database a newer release migrated.
 */
const seed = {
  ...((await import(join(SERVER_ROOT, 'main/storage/database.js'))) as typeof import('../../main/storage/database.js')),
  ...((await import(join(SERVER_ROOT, 'main/services/index.js'))) as typeof import('../../main/services/index.js')),
  ...((await import(join(SERVER_ROOT, 'main/services/clock.js'))) as typeof import('../../main/services/clock.js')),
  ...((await import(join(SERVER_ROOT, 'test/bench/catalog.js'))) as typeof import('./catalog.js')),
};

interface Upstream {
  dir: string;
  base: string;
  pid: number;
  client: ChainClient;
  catalog: Catalog;
  /** Bytes of the database file before the chain's first request. */
  bytesBefore: number;
  stop(): Promise<void>;
}

/** A fresh upstream: a new data folder with the catalog, the server started on it as `npm start` does. */
async function startUpstream(): Promise<Upstream> {
  const dir = mkdtempSync(join(tmpdir(), 'retail-bench-chain-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  log(`Upstream catalog of ${PRODUCTS} products…`);
  const db = seed.openDatabase(join(dir, DATABASE_FILE), { synchronous: 'NORMAL' });
  const org = seed.createServices({ db, clock: seed.systemClock }).organizations.create({ name: 'Chain', features: [] });
  const catalog = seed.generateCatalog(db, org.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0, stores: 1 });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  const bytesBefore = statSync(join(dir, DATABASE_FILE)).size;
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [];
  const upstream = spawnProcess(command, [...profile, ...args], { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, SERVER_ROOT);
  await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 60_000, 'the upstream answering');
  const client = chainClient(base, org.writeKey);
  return {
    dir,
    base,
    pid: upstream.child.pid!,
    client,
    catalog,
    bytesBefore,
    stop: async () => {
      client.close();
      await upstream.stop();
    },
  };
}

/**
 * What the upstream's OpenAPI document offers, read as a store PC reads it: the
 * pulled collections' lists (change feed or not, largest page), and whether it
 * takes the fleet's heartbeats.
 */
async function offer(base: string): Promise<{ pulled: Collection[]; heartbeat: boolean }> {
  const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
    paths: Record<string, { get?: { parameters?: { name: string; in: string; schema?: { maximum?: number } }[] } }>;
  };
  const heartbeat = Object.keys(document.paths).some((key) => key.endsWith('/fleet/heartbeat'));
  const pulled = ['/stores', '/suppliers', '/categories', '/products'].map((path) => {
    const entry = Object.entries(document.paths).find(([key]) => key === path || key.endsWith(`/v1${path}`))?.[1];
    const parameters = entry?.get?.parameters ?? [];
    const limit = parameters.find((p) => p.name === 'limit' && p.in === 'query')?.schema?.maximum ?? 1000;
    return { path, feed: parameters.some((p) => p.name === 'updatedSince' && p.in === 'query'), limit };
  });
  return { pulled, heartbeat };
}
/** Opens stores upstream until the chain has `count`, as HQ would for new branches. */
async function openStores(client: ChainClient, count: number): Promise<string[]> {
  const storeIds: string[] = [];
  while (storeIds.length < count) {
    const batch = Array.from({ length: Math.min(32, count - storeIds.length) }, (_, i) => storeIds.length + i);
    const created = await Promise.all(batch.map((n) => client.send('POST', '/stores', { name: `Filiale ${n + 1}` })));
    for (const answer of created) {
      const id = (answer.body as { id?: string } | undefined)?.id;
      if (answer.status !== 200 || !id) throw new Error(`POST /stores answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      storeIds.push(id);
    }
  }
  return storeIds;
}

interface StepResult {
  stores: number;
  seconds: number;
  recorder: Recorder;
  upstreamCores: number;
  simCores: number;
  /** Sales the upstream acknowledged over the whole step, warm-up included. */
  salesStored: number;
  /** Growth of the upstream's database over the step, in bytes (after its shutdown folded the WAL in). */
  bytesGrown: number;
}

/** `stores` simulated stores against `target` (the upstream, or the bare baseline) for one step; `target` runs as process `targetPid`. */
async function runStep(
  stores: number,
  target: ChainClient,
  targetPid: number,
  chain: { storeIds: string[]; productIds: string[]; pulled: Collection[]; heartbeat: boolean },
  measuredSeconds = STEP_SECONDS,
): Promise<Omit<StepResult, 'bytesGrown'>> {
  const recorder: Recorder = { pushMs: [], pullMs: [], heartbeatMs: [], errors: {}, rows: 0 };
  let salesStored = 0;
  const inFlight = new Set<Promise<unknown>>();
  const now = await target.send('GET', '/health');
  const sims = chain.storeIds.slice(0, stores).map((storeId) =>
    simulateStore({
      client: target,
      storeId,
      keyPrefix: `chain-${stores}`,
      productIds: chain.productIds,
      collections: chain.pulled,
      saleMs: (SALE_SECONDS * 1000) / SPEEDUP,
      pullMs: (PULL_SECONDS * 1000) / SPEEDUP,
      pulledAt: now.upstreamTime,
      recorder,
      inFlight,
      heartbeat: chain.heartbeat,
      onStored: () => (salesStored += 1),
    }),
  );
  const hq = setInterval(() => {
    const product = chain.productIds[Math.floor(Math.random() * chain.productIds.length)]!;
    void target.send('POST', `/products/${product}`, { price: 100 + Math.floor(Math.random() * 900) });
  }, 60_000 / SPEEDUP / Math.max(1e-9, HQ_CHANGES_PER_MINUTE));
  await new Promise((resolve) => setTimeout(resolve, WARMUP_SECONDS * 1000));
  Object.assign(recorder, { pushMs: [], pullMs: [], heartbeatMs: [], errors: {}, rows: 0 });
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
  recorder.heartbeatMs.sort((a, b) => a - b);
  return {
    stores,
    seconds,
    recorder,
    upstreamCores: (cpuMs(targetPid) - cpuBefore) / 1000 / seconds,
    simCores: (sim.user + sim.system) / 1e6 / seconds,
    salesStored,
  };
}

const p = (sorted: number[], q: number) => (sorted.length ? percentile(sorted, q).toFixed(1) : '–');
const results: StepResult[] = [];
let floor: Omit<StepResult, 'bytesGrown'> | undefined;
for (const stores of SIZES) {
  const upstream = await startUpstream();
  try {
    const { pulled, heartbeat } = await offer(upstream.base);
    log(
      `Change feed offered for: ${pulled.filter((c) => c.feed).map((c) => c.path).join(', ') || 'none'}; read whole on every pull: ${pulled.filter((c) => !c.feed).map((c) => c.path).join(', ') || 'none'}; ` +
        `heartbeats ${heartbeat ? 'taken' : 'not offered'}.`,
    );
    const storeIds = await openStores(upstream.client, stores);
    // Past the feed's margin and a store's first overlap: the chain's own store records are not pulled as news
    // (a first pull's completeUntil is its time minus FEED_MARGIN_MS, so the next pull reads again what came before).
    await new Promise((resolve) => setTimeout(resolve, FEED_MARGIN_MS + 3000));
    const chain = { storeIds, productIds: upstream.catalog.productIds, pulled, heartbeat };
    if (!floor) {
      const floorPort = await freePort();
      const bare = spawnProcess(process.execPath, ['--import', 'tsx', 'test/bench/chain-baseline.ts'], { PORT: String(floorPort) }, PROJECT_ROOT);
      const bareBase = `http://127.0.0.1:${floorPort}/api/v1`;
      await waitFor(async () => ((await fetch(`${bareBase}/health`)).ok ? true : undefined), 30_000, 'the bare baseline answering');
      const bareClient = chainClient(bareBase, 'floor');
      log(`Floor: ${FLOOR_STORES} simulated stores against bare node:http for ${Math.ceil(STEP_SECONDS / 3)} s…`);
      floor = await runStep(Math.min(FLOOR_STORES, stores), bareClient, bare.child.pid!, chain, Math.ceil(STEP_SECONDS / 3));
      bareClient.close();
      await bare.stop();
    }
    log(`Step: ${stores} simulated stores${SPEEDUP === 1 ? '' : ` at ${SPEEDUP}x speed`} on a fresh upstream for ${STEP_SECONDS} s…`);
    const result = await runStep(stores, upstream.client, upstream.pid, chain);
    await upstream.stop();
    results.push({ ...result, bytesGrown: statSync(join(upstream.dir, DATABASE_FILE)).size - upstream.bytesBefore });
  } finally {
    await upstream.stop();
    rmSync(upstream.dir, { recursive: true, force: true });
  }
}

log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}; upstream of ${PRODUCTS} products, ${HQ_CHANGES_PER_MINUTE} price changes a minute by HQ.`);
log(`Load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}; server measured: ${SERVER_ROOT}.`);
log(
  `Each simulated store sells every ${SALE_SECONDS} s and pulls every ${PULL_SECONDS} s` +
    (SPEEDUP === 1 ? '.' : `, time-compressed ${SPEEDUP}x (every ${SALE_SECONDS / SPEEDUP} s and ${PULL_SECONDS / SPEEDUP} s): N simulated stores load the upstream as ${SPEEDUP} x N real ones.`),
);
log(
  '\n| stores (equivalent) | sales/s offered / served | pull requests/s | heartbeats/s | rows pulled/s | upstream CPU (cores) | upstream CPU per store (ms/s) | upstream CPU per call (µs) | push p50 / p99 ms | pull p50 / p99 ms | heartbeat p50 / p99 ms | errors | DB bytes per sale | simulator CPU (cores) |',
);
log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
/** The upstream's CPU time over the pushes, pulls and heartbeats it answered: what each call costs, whatever the chain's size. */
const cpuPerCallUs = (r: StepResult) => (r.upstreamCores * r.seconds * 1e6) / (r.recorder.pushMs.length + r.recorder.pullMs.length + r.recorder.heartbeatMs.length);
const bytesPerSale = (r: StepResult) => (r.salesStored ? Math.round(r.bytesGrown / r.salesStored) : NaN);
for (const r of results) {
  const rate = (n: number) => (n / r.seconds).toFixed(1);
  log(
    `| ${r.stores * SPEEDUP} | ${((r.stores * SPEEDUP) / SALE_SECONDS).toFixed(1)} / ${rate(r.recorder.pushMs.length)} | ${rate(r.recorder.pullMs.length)} | ${rate(r.recorder.heartbeatMs.length)} | ${rate(r.recorder.rows)} | ${r.upstreamCores.toFixed(2)} | ` +
      `${((r.upstreamCores / (r.stores * SPEEDUP)) * 1000).toFixed(3)} | ${cpuPerCallUs(r).toFixed(0)} | ${p(r.recorder.pushMs, 50)} / ${p(r.recorder.pushMs, 99)} | ${p(r.recorder.pullMs, 50)} / ${p(r.recorder.pullMs, 99)} | ` +
      `${p(r.recorder.heartbeatMs, 50)} / ${p(r.recorder.heartbeatMs, 99)} | ` +
      `${Object.values(r.recorder.errors).reduce((a, b) => a + b, 0)} | ${bytesPerSale(r)} | ${r.simCores.toFixed(2)} |`,
  );
}
if (floor) {
  log(
    `\nFloor in the same run (bare node:http answering the same calls at once, ${floor.stores * SPEEDUP} stores): ` +
      `push p50 / p99 ${p(floor.recorder.pushMs, 50)} / ${p(floor.recorder.pushMs, 99)} ms, pull p50 / p99 ${p(floor.recorder.pullMs, 50)} / ${p(floor.recorder.pullMs, 99)} ms: ` +
      'what the machine and the simulator add to every request.',
  );
}
for (const r of results) {
  const errors = Object.entries(r.recorder.errors);
  if (errors.length) log(`Errors at ${r.stores * SPEEDUP} stores: ${errors.map(([what, n]) => `${n} x ${what}`).join(', ')}.`);
}
const passes = (r: StepResult) => percentile(r.recorder.pushMs, 99) <= P99_LIMIT_MS && percentile(r.recorder.pullMs, 99) <= P99_LIMIT_MS;
const carried = results.filter(passes).reduce((most, r) => Math.max(most, r.stores), 0);
const over = results.filter((r) => !passes(r)).map((r) => r.stores * SPEEDUP);
log(
  `\nOne upstream on ${cpus().length} cores carries ${carried * SPEEDUP} stores with push and pull p99 at or under ${P99_LIMIT_MS} ms` +
    (over.length ? `; over it at ${over.join(', ')}.` : ' (every size run; add larger BENCH_CHAIN_SIZES to find the limit).'),
);
const stored = results.reduce((n, r) => n + r.salesStored, 0);
const grown = results.reduce((n, r) => n + r.bytesGrown, 0);
if (stored > 0) log(`Upstream database bytes per sale: ${Math.round(grown / stored)} (growth of retail.sqlite after shutdown over ${stored} acknowledged sales, stores' and HQ's writes included).`);
log('The simulator shares the cores with the upstream (its own CPU is in the last column), and so does anything else running on the machine.');
