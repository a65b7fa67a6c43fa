import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { enforcePermissions } from '../../main/http/permissions.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { FULL_SIZE, generateCatalog, random } from './catalog.js';
import { load, percentile, timeSequential, type LoadResult } from './load.js';
import { freePort } from '../support/processes.js';
import { buildAndGetStartCommand, cpuMs, rssMb, spawnProcess, waitFor, type Spawned } from './server-process.js';

/**
 * `npm run bench`: the figures a store PC cares about, measured on the real
 * server started as `npm start` starts it, each next to its target and, where
 * one applies, next to a bare node:http and a bare Express baseline measured
 * in the same run. `BENCH_SERVER_ROOT` names another checkout whose server is
 * built and measured instead (the baselines and the load stay this one's), so
 * that a before and an after come from the same bench in one session.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const size = {
  ...FULL_SIZE,
  products: Math.round(FULL_SIZE.products * SCALE),
  orders: Math.round(FULL_SIZE.orders * SCALE),
};

/** Figures from a shared machine mean little without how busy it was. */
const loadAtStart = loadavg();
const dataDir = mkdtempSync(join(tmpdir(), 'retail-bench-'));
const log = (text: string) => process.stdout.write(text + '\n');

log(`Generating ${size.products} products, ${size.orders} orders, ${size.categories} categories, ${size.suppliers} suppliers, ${size.stores} stores…`);
const generated = performance.now();
const db = openDatabase(join(dataDir, DATABASE_FILE));
const benchServices = createServices({ db, clock: systemClock });
const org = benchServices.organizations.create({ name: 'Bench', features: ['barcode-aliases'] });
const catalog = generateCatalog(db, org.id, size);
const kioskKey = benchServices.organizations.createKey(org.id, { kind: 'kiosk', store: catalog.storeIds[0]! }).key;
db.close();
// Two more data folders with the same catalog, for the servers with and without the permission check.
const checkedDir = mkdtempSync(join(tmpdir(), 'retail-bench-checked-'));
const uncheckedDir = mkdtempSync(join(tmpdir(), 'retail-bench-unchecked-'));
for (const dir of [checkedDir, uncheckedDir]) copyFileSync(join(dataDir, DATABASE_FILE), join(dir, DATABASE_FILE));
log(`  done in ${((performance.now() - generated) / 1000).toFixed(1)} s`);

const serverRoot = process.env.BENCH_SERVER_ROOT ?? PROJECT_ROOT;
log(`Building ${serverRoot}…`);
const { command, args, shown } = buildAndGetStartCommand(serverRoot);

const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;
const auth = { authorization: `Bearer ${org.writeKey}` };
const get = async (path: string) => {
  const res = await fetch(base + path, { headers: auth });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
};

log(`Cold start: ${shown}…`);
const spawnedAt = performance.now();
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' }, serverRoot);
const health = async () => {
  const res = await fetch(`${base}/health`);
  return res.status === 200 ? ((await res.json()) as { search: string }) : undefined;
};
await waitFor(health, 30_000, 'the API answering');
const apiMs = performance.now() - spawnedAt;
await waitFor(async () => ((await health())?.search === 'ready' ? true : undefined), 60_000, 'search ready');
const searchMs = performance.now() - spawnedAt;
const rssAfterReady = rssMb(server.child.pid!);

const rnd = random(7);
const pickId = () => catalog.productIds[rnd.int(catalog.productIds.length)]!;
const pickCode = () => (rnd.next() < 0.2 && catalog.aliasCodes.length > 0 ? rnd.pick(catalog.aliasCodes) : rnd.pick(catalog.barcodes));
const byIdPath = () => `/api/v1/products/${pickId()}`;
const barcodePath = () => `/api/v1/products?barcode=${pickCode()}`;

const healthPath = () => '/api/v1/health';
const startBaseline = async (kind: 'node' | 'express') => {
  const baselinePort = await freePort();
  const spawned = spawnProcess(
    process.execPath,
    ['--import', 'tsx', 'test/bench/baseline-server.ts'],
    { PORT: String(baselinePort), DATA_DIR: dataDir, ORG_ID: org.id, BASELINE: kind },
    PROJECT_ROOT,
  );
  const url = `http://127.0.0.1:${baselinePort}`;
  await waitFor(async () => ((await fetch(`${url}/api/v1/products/${pickId()}`)).ok ? true : undefined), 30_000, `the bare ${kind} baseline`);
  return { spawned, url };
};
const bareNode = await startBaseline('node');
const bareExpress = await startBaseline('express');

/** A load run with the CPU time the serving process spent per request, in µs. */
async function measured(serving: Spawned, run: Promise<LoadResult>): Promise<LoadResult & { cpuUs: number }> {
  const before = cpuMs(serving.child.pid!);
  const result = await run;
  return { ...result, cpuUs: ((cpuMs(serving.child.pid!) - before) * 1000) / result.requests };
}

type Measured = Awaited<ReturnType<typeof measured>>;
/**
 * Alternates the two baselines and our server so that noise hits all alike;
 * keeps the median run of each. Our server is loaded with a write key, as a
 * till's lookups would be; the baselines check no key.
 */
async function compare(name: string, nextPath: () => string) {
  const runs = { ours: [] as Measured[], node: [] as Measured[], express: [] as Measured[] };
  for (let round = 0; round < 3; round++) {
    runs.node.push(await measured(bareNode.spawned, load({ url: bareNode.url, seconds: SECONDS, nextPath })));
    runs.express.push(await measured(bareExpress.spawned, load({ url: bareExpress.url, seconds: SECONDS, nextPath })));
    runs.ours.push(await measured(server, load({ url: `http://127.0.0.1:${port}`, seconds: SECONDS, headers: auth, nextPath })));
  }
  const median = (list: Measured[]) => [...list].sort((a, b) => a.rps - b.rps)[1]!;
  const medianCpu = (list: Measured[]) => list.map((r) => r.cpuUs).sort((a, b) => a - b)[1]!;
  const result = {
    ours: median(runs.ours),
    node: median(runs.node),
    express: median(runs.express),
    cpuUs: medianCpu(runs.ours),
    nodeCpuUs: medianCpu(runs.node),
    expressCpuUs: medianCpu(runs.express),
  };
  log(
    `  ${name}: ${result.ours.rps.toFixed(0)} req/s, ${(result.ours.rps / result.express.rps).toFixed(2)}× bare Express (${result.express.rps.toFixed(0)}), ` +
      `${(result.ours.rps / result.node.rps).toFixed(2)}× bare node:http (${result.node.rps.toFixed(0)}); ` +
      `server CPU ${result.cpuUs.toFixed(0)} µs per request (Express ${result.expressCpuUs.toFixed(0)}, node:http ${result.nodeCpuUs.toFixed(0)})`,
  );
  return result;
}

// Warms all three (JIT, SQLite's page cache) before anything counts.
for (const nextPath of [byIdPath, barcodePath]) {
  await load({ url: bareNode.url, seconds: SECONDS, nextPath });
  await load({ url: bareExpress.url, seconds: SECONDS, nextPath });
  await load({ url: `http://127.0.0.1:${port}`, seconds: SECONDS, headers: auth, nextPath });
}
log('Read by id…');
const readById = await compare('read by id', byIdPath);
log('Barcode lookup…');
const barcode = await compare('barcode lookup', barcodePath);
log('Health…');
const healthRead = await compare('health', healthPath);
await Promise.all([bareNode.spawned.stop(), bareExpress.spawned.stop()]);

/**
 * What the check of key kinds costs: the built server with and without it,
 * reading products by id with a kiosk key (for which the check looks the
 * operation up in the table on every request). Two servers run side by side;
 * on this kind of machine the one started first can run several per cent
 * slower than the other whatever it runs (the same build on both shows it),
 * so the comparison is made twice, the second time with the variants'
 * start order and data folders swapped, and the two ratios are averaged.
 * Within a phase the runs go A B B A A B B A, so that a machine getting
 * busier or quieter weighs on both alike, and each side keeps the mean of
 * its two middle runs.
 */
async function permissionCost() {
  const kioskAuth = { authorization: `Bearer ${kioskKey}` };
  const start = async (dir: string, check: 'on' | 'off') => {
    const serverPort = await freePort();
    const spawned = spawnProcess(
      process.execPath,
      ['--max-semi-space-size=4', '--import', 'tsx', 'test/bench/permission-server.ts'],
      { PORT: String(serverPort), DATA_DIR: dir, PERMISSION_CHECK: check },
      serverRoot,
    );
    const url = `http://127.0.0.1:${serverPort}`;
    // Measured only once the search index is built, so that its start-up build takes no CPU from either run.
    const ready = async () => ((await (await fetch(`${url}/api/v1/health`)).json()) as { search: string }).search === 'ready';
    await waitFor(async () => ((await ready()) ? true : undefined), 120_000, `search ready on the server with check ${check}`);
    return { spawned, url };
  };
  const middle = (runs: number[]) => {
    const sorted = [...runs].sort((a, b) => a - b);
    return (sorted[1]! + sorted[2]!) / 2;
  };
  const phase = async (first: 'on' | 'off') => {
    const checked = first === 'on' ? await start(checkedDir, 'on') : undefined;
    const unchecked = await start(first === 'on' ? uncheckedDir : checkedDir, 'off');
    const checkedSide = checked ?? (await start(uncheckedDir, 'on'));
    const run = (side: typeof unchecked) => measured(side.spawned, load({ url: side.url, seconds: SECONDS, headers: kioskAuth, nextPath: byIdPath }));
    // Warms both (JIT, SQLite's page cache) before anything counts.
    await run(unchecked);
    await run(checkedSide);
    const withCheck: Awaited<ReturnType<typeof measured>>[] = [];
    const without: Awaited<ReturnType<typeof measured>>[] = [];
    for (const side of ['off', 'on', 'on', 'off', 'off', 'on', 'on', 'off'] as const) {
      if (side === 'on') withCheck.push(await run(checkedSide));
      else without.push(await run(unchecked));
    }
    await Promise.all([checkedSide.spawned.stop(), unchecked.spawned.stop()]);
    const result = {
      rps: middle(withCheck.map((r) => r.rps)),
      baselineRps: middle(without.map((r) => r.rps)),
      cpuUs: middle(withCheck.map((r) => r.cpuUs)),
      baselineCpuUs: middle(without.map((r) => r.cpuUs)),
      failed: [...withCheck, ...without].reduce((n, r) => n + r.non2xx + r.errors, 0),
    };
    log(`  started ${first === 'on' ? 'with' : 'without'} the check first: ${result.rps.toFixed(0)} req/s with, ${result.baselineRps.toFixed(0)} req/s without (${((result.rps / result.baselineRps) * 100).toFixed(1)} %)`);
    return result;
  };
  const phases = [await phase('on'), await phase('off')];
  const mean = (pick: (p: (typeof phases)[number]) => number) => (pick(phases[0]!) + pick(phases[1]!)) / 2;
  const result = {
    rps: mean((p) => p.rps),
    baselineRps: mean((p) => p.baselineRps),
    ratio: Math.sqrt((phases[0]!.rps / phases[0]!.baselineRps) * (phases[1]!.rps / phases[1]!.baselineRps)),
    cpuUs: mean((p) => p.cpuUs),
    baselineCpuUs: mean((p) => p.baselineCpuUs),
    checkNs: checkNanoseconds(),
    phases,
    failed: phases.reduce((n, p) => n + p.failed, 0),
  };
  log(
    `  permission check: ${result.rps.toFixed(0)} req/s with, ${result.baselineRps.toFixed(0)} req/s without (${(result.ratio * 100).toFixed(1)} %); ` +
      `CPU ${result.cpuUs.toFixed(1)} µs vs ${result.baselineCpuUs.toFixed(1)} µs per request; the check alone ${result.checkNs.toFixed(0)} ns`,
  );
  return result;
}

/**
 * The check alone, in this process: the same middleware the server mounts,
 * called for a kiosk key's reads by id, in nanoseconds per request. Next to
 * the CPU a whole request costs, it bounds what the check can cost at most,
 * whatever the noise of the load runs.
 */
function checkNanoseconds(): number {
  const check = enforcePermissions();
  const res = { locals: { caller: { keyKind: 'kiosk' } } } as unknown as Response;
  const requests = Array.from({ length: 1024 }, () => ({ method: 'GET', path: byIdPath().slice('/api/v1'.length) }) as Request);
  let passed = 0;
  const next = () => {
    passed += 1;
  };
  const calls = (n: number) => {
    for (let i = 0; i < n; i++) check(requests[i & 1023]!, res, next);
  };
  calls(200_000);
  const n = 2_000_000;
  const started = performance.now();
  calls(n);
  const ns = ((performance.now() - started) * 1e6) / n;
  if (passed !== n + 200_000) throw new Error(`the check refused ${n + 200_000 - passed} kiosk reads by id`);
  return ns;
}
log('Permission check (kiosk key, read by id)…');
const permission = await permissionCost();

log('Search…');
const queries = [
  'schok', 'bergk', 'caff', 'froma', 'past', 'vollm', 'brot', 'müesli', 'muesli', 'cafe',
  'schokolde', 'formagio', 'chocolat', 'lemonde', 'fromge', 'yoghrt',
  'bio milch', 'alpin käse', 'dolce pasta', 'fresh bread 1l', 'premium caffè 500g',
  ...Array.from({ length: 8 }, () => pickCode()),
];
const search = await load({
  url: `http://127.0.0.1:${port}`,
  seconds: SECONDS,
  headers: auth,
  nextPath: () => `/api/v1/products?q=${encodeURIComponent(rnd.pick(queries))}`,
});
log(`  search: ${search.rps.toFixed(0)} req/s, p95 ${search.p95.toFixed(2)} ms`);

log('List pages…');
async function walk(limit: number, pages: number) {
  let cursor: string | undefined;
  return timeSequential(pages, async () => {
    const page = await get(`/products?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    cursor = page.meta.nextCursor;
  });
}
const page100 = await walk(100, 200);
const page5000 = await walk(5000, Math.max(1, Math.floor(size.products / 5000)));
const dayEnd = new Date(Date.parse(catalog.orderDay) + 86_400_000 - 1).toISOString();
const ordersDay = await timeSequential(50, async () => {
  await get(`/orders?start=${catalog.orderDay}&end=${dayEnd}`);
});
const ordersInDay = (await get(`/orders?start=${catalog.orderDay}&end=${dayEnd}&limit=5000`)).meta.returned as number;

log('Writes…');
let serial = 0;
const createProducts = (url: string, headers: Record<string, string>) =>
  load({
    url,
    seconds: SECONDS,
    method: 'POST',
    headers,
    nextPath: () => '/api/v1/products',
    nextBody: () => JSON.stringify({ name: `Bench Artikel ${serial}`, price: 250, taxCategory: '2.6', barcode: `bench-${serial++}` }),
  });

/**
 * Durable creates three ways, alternated: the server as it runs (writes of a
 * few milliseconds share a commit), the same build with `GROUP_COMMIT_MS=0`
 * (each write its own commit and fsync, as before group commit), and the bare
 * writer (node:http, one row and one outbox row per commit). Keeps the median run of each.
 */
async function durableCreates() {
  const alonePort = await freePort();
  const alone = spawnProcess(command, args, { PORT: String(alonePort), DATA_DIR: uncheckedDir, HOST: '127.0.0.1', GROUP_COMMIT_MS: '0' }, serverRoot);
  // Measured once its search index is built, so that the build takes no CPU from the runs.
  const aloneReady = async () => ((await fetch(`http://127.0.0.1:${alonePort}/api/v1/health`).then((r) => r.json(), () => ({}))) as { search?: string }).search === 'ready';
  await waitFor(async () => ((await aloneReady()) ? true : undefined), 120_000, 'the server without group commit');
  const bareDir = mkdtempSync(join(tmpdir(), 'retail-bench-bare-writer-'));
  const barePort = await freePort();
  const bare = spawnProcess(process.execPath, ['--import', 'tsx', 'test/bench/bare-writer.ts'], { PORT: String(barePort), DATA_DIR: bareDir }, PROJECT_ROOT);
  await waitFor(async () => ((await fetch(`http://127.0.0.1:${barePort}/`, { method: 'POST', body: '{}' }).then((r) => r.ok, () => false)) ? true : undefined), 30_000, 'the bare writer');
  const runs = { grouped: [] as LoadResult[], alone: [] as LoadResult[], bare: [] as LoadResult[] };
  for (let round = 0; round < 3; round++) {
    runs.bare.push(await createProducts(`http://127.0.0.1:${barePort}`, {}));
    runs.alone.push(await createProducts(`http://127.0.0.1:${alonePort}`, auth));
    runs.grouped.push(await createProducts(`http://127.0.0.1:${port}`, auth));
  }
  await Promise.all([alone.stop(), bare.stop()]);
  rmSync(bareDir, { recursive: true, force: true });
  const median = (results: LoadResult[]) => [...results].sort((a, b) => a.rps - b.rps)[1]!;
  const result = { grouped: median(runs.grouped), alone: median(runs.alone), bare: median(runs.bare) };
  log(
    `  POST /products: ${result.grouped.rps.toFixed(0)} req/s in groups, ${result.alone.rps.toFixed(0)} req/s each alone, ` +
      `bare writer ${result.bare.rps.toFixed(0)} req/s`,
  );
  return result;
}
const creates = await durableCreates();
const productWrites = creates.grouped;
const orderWrites = await load({
  url: `http://127.0.0.1:${port}`,
  seconds: SECONDS,
  method: 'POST',
  headers: auth,
  nextPath: () => '/api/v1/orders',
  nextBody: () =>
    JSON.stringify({
      store: rnd.pick(catalog.storeIds),
      products: Array.from({ length: 1 + rnd.int(4) }, () => ({ productId: pickId(), quantity: 1 + rnd.int(3) })),
    }),
});
const rssEnd = rssMb(server.child.pid!);
await server.stop();
for (const dir of [dataDir, checkedDir, uncheckedDir]) rmSync(dir, { recursive: true, force: true });

const median = (sorted: number[]) => percentile(sorted, 50);
type Row = { figure: string; value: string; baseline?: string; ratio?: string; target: string; met: boolean };
const rows: Row[] = [
  { figure: 'cold start: API answering', value: `${apiMs.toFixed(0)} ms`, target: '< 1500 ms', met: apiMs < 1500 },
  { figure: 'cold start: search ready', value: `${searchMs.toFixed(0)} ms`, target: '< 3000 ms', met: searchMs < 3000 },
  { figure: 'RSS after ready', value: `${rssAfterReady.toFixed(0)} MB`, target: '< 300 MB', met: rssAfterReady < 300 },
];
for (const [name, result] of [['read by id', readById], ['barcode lookup', barcode], ['health', healthRead]] as const) {
  const ofExpress = result.ours.rps / result.express.rps;
  const ofNode = result.ours.rps / result.node.rps;
  const lookup = name !== 'health';
  rows.push(
    {
      figure: `${name} (10 conn.) / bare Express`,
      value: `${result.ours.rps.toFixed(0)} req/s`,
      baseline: `${result.express.rps.toFixed(0)} req/s`,
      ratio: `${ofExpress.toFixed(2)}×`,
      target: lookup ? '>= 0.7×' : '–',
      met: !lookup || ofExpress >= 0.7,
    },
    {
      figure: `${name} (10 conn.) / bare node:http`,
      value: `${result.ours.rps.toFixed(0)} req/s`,
      baseline: `${result.node.rps.toFixed(0)} req/s`,
      ratio: `${ofNode.toFixed(2)}×`,
      target: lookup ? '>= 0.12×' : '–',
      met: !lookup || ofNode >= 0.12,
    },
    {
      figure: `${name} server CPU per request (Express / node:http)`,
      value: `${result.cpuUs.toFixed(0)} µs`,
      baseline: `${result.expressCpuUs.toFixed(0)} / ${result.nodeCpuUs.toFixed(0)} µs`,
      target: '–',
      met: true,
    },
    {
      figure: `${name} p50 / p99`,
      value: `${result.ours.p50.toFixed(2)} / ${result.ours.p99.toFixed(2)} ms`,
      baseline: `${result.express.p50.toFixed(2)} / ${result.express.p99.toFixed(2)} ms`,
      target: lookup ? 'p99 < 5 ms' : '–',
      met: !lookup || result.ours.p99 < 5,
    },
  );
}
const permissionCostShare = 1 - permission.ratio;
rows.push(
  {
    figure: 'read by id, kiosk key: with / without permission check',
    value: `${permission.rps.toFixed(0)} req/s`,
    baseline: `${permission.baselineRps.toFixed(0)} req/s`,
    ratio: `${(permission.ratio * 100).toFixed(1)} %`,
    target: 'cost <= 2 %',
    met: permissionCostShare <= 0.02,
  },
  {
    figure: 'the check alone (in process) / CPU of a request without it',
    value: `${permission.checkNs.toFixed(0)} ns`,
    baseline: `${permission.baselineCpuUs.toFixed(1)} µs`,
    ratio: `${((permission.checkNs / 1000 / permission.baselineCpuUs) * 100).toFixed(2)} %`,
    target: 'cost <= 2 %',
    met: permission.checkNs / 1000 / permission.baselineCpuUs <= 0.02,
  },
  {
    figure: 'read by id, kiosk key: CPU per request with / without check',
    value: `${permission.cpuUs.toFixed(1)} µs`,
    baseline: `${permission.baselineCpuUs.toFixed(1)} µs`,
    ratio: `${((permission.baselineCpuUs / permission.cpuUs) * 100).toFixed(1)} %`,
    target: '–',
    met: true,
  },
);
rows.push(
  { figure: 'search (10 conn.) p50 / p95', value: `${search.p50.toFixed(2)} / ${search.p95.toFixed(2)} ms (${search.rps.toFixed(0)} req/s)`, target: 'p95 < 10 ms', met: search.p95 < 10 },
  { figure: 'list limit=100, median / p95', value: `${median(page100).toFixed(2)} / ${percentile(page100, 95).toFixed(2)} ms`, target: '–', met: true },
  { figure: 'list limit=5000, median / max', value: `${median(page5000).toFixed(1)} / ${page5000[page5000.length - 1]!.toFixed(1)} ms`, target: '< 60 ms', met: median(page5000) < 60 },
  { figure: `orders, one day (${ordersInDay} orders), limit=100`, value: `${median(ordersDay).toFixed(2)} ms median`, target: '–', met: true },
  { figure: 'POST /products (+ outbox)', value: `${productWrites.rps.toFixed(0)} req/s, p99 ${productWrites.p99.toFixed(1)} ms`, target: '>= 1000 req/s', met: productWrites.rps >= 1000 },
  {
    figure: 'POST /products in groups / bare writer',
    value: `${creates.grouped.rps.toFixed(0)} req/s`,
    baseline: `${creates.bare.rps.toFixed(0)} req/s`,
    ratio: `${((creates.grouped.rps / creates.bare.rps) * 100).toFixed(0)} %`,
    target: '–',
    met: true,
  },
  {
    figure: 'POST /products each alone (GROUP_COMMIT_MS=0) / bare writer',
    value: `${creates.alone.rps.toFixed(0)} req/s, p99 ${creates.alone.p99.toFixed(1)} ms`,
    baseline: `${creates.bare.rps.toFixed(0)} req/s`,
    ratio: `${((creates.alone.rps / creates.bare.rps) * 100).toFixed(0)} %`,
    target: '–',
    met: true,
  },
  { figure: 'POST /orders (+ outbox)', value: `${orderWrites.rps.toFixed(0)} req/s, p99 ${orderWrites.p99.toFixed(1)} ms`, target: '–', met: true },
  { figure: 'RSS at the end', value: `${rssEnd.toFixed(0)} MB`, target: '–', met: true },
);
const errors = [readById.ours, barcode.ours, healthRead.ours, search, creates.grouped, creates.alone, creates.bare, orderWrites].reduce((n, r) => n + r.non2xx + r.errors, permission.failed);

const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
log(`\nMachine: ${machine}`);
log(`Catalog: ${size.products} products, ${size.orders} orders; ${SECONDS} s per load run, 10 connections`);
log(`Load average at start / end: ${loadAtStart.map((l) => l.toFixed(1)).join(' ')} / ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
log(`Server measured: ${serverRoot}\n`);
const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'met'];
const table = rows.map((r) => [r.figure, r.value, r.baseline ?? '', r.ratio ?? '', r.target, r.met ? 'yes' : 'NO']);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
log(line(header));
log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table) log(line(r));
if (errors > 0) log(`\n${errors} requests failed or answered non-2xx during load runs.`);

const resultsDir = join(PROJECT_ROOT, '.bench-results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `api-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify({ machine, size, seconds: SECONDS, serverRoot, load: { atStart: loadAtStart, atEnd: loadavg() }, coldStart: { apiMs, searchMs, rssAfterReady }, readById, barcode, health: healthRead, permission, search, page100, page5000, ordersDay, creates, orderWrites, rssEnd, errors, rows }, null, 2),
);
log(`\nResults written to ${file}`);
