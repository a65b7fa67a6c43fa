import Database from 'better-sqlite3';
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupDataFolder } from '../../main/backup/backup.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { runCli } from '../support/cli.js';
import { compileProduct } from '../support/compiled-product.js';
import { freePort } from '../support/processes.js';
import { generateCatalog, random } from './catalog.js';
import { percentile } from './load.js';
import { rssMb, waitFor } from './server-process.js';

/**
 * `npm run bench:years`: a store PC with a catalog of 20,000 products against
 * its upstream (a hub), both real servers in their own processes, through
 * three years in compressed time. Each simulated day: 500 sales at the store,
 * 50 price edits at head office, the store's pushes and pulls on its own
 * timers (the daily full pull among them); a backup every week (the PC is
 * also switched off and on, which runs its start-up purges), one restore from
 * the last backup. The clocks of both servers jump a day at a time.
 *
 * Prints, at month 1 and at years 1, 2 and 3: the store's database and WAL
 * size, its RSS, the p99 of a barcode lookup and of `POST /orders`, and the
 * hub's database size; then what was parked after the restore.
 */
const DAY_MS = 86_400_000;
const DAYS = Number(process.env.BENCH_YEARS_DAYS ?? 3 * 365);
const PRODUCTS = Number(process.env.BENCH_YEARS_PRODUCTS ?? 20_000);
const SALES_PER_DAY = Number(process.env.BENCH_YEARS_SALES_PER_DAY ?? 500);
const EDITS_PER_DAY = Number(process.env.BENCH_YEARS_EDITS_PER_DAY ?? 50);
/** Simulated days per step: the sales and edits of every day are made, the clocks jump this far at once. */
const DAYS_PER_STEP = Number(process.env.BENCH_YEARS_DAYS_PER_STEP ?? 1);
const RESTORE_DAY = Number(process.env.BENCH_YEARS_RESTORE_DAY ?? Math.round(DAYS * 0.55));
const CHECKPOINTS = new Map<number, string>([
  [30, 'month 1'],
  [365, 'year 1'],
  [730, 'year 2'],
  [1095, 'year 3'],
].filter(([day]) => (day as number) <= DAYS) as [number, string][]);
// A shortened run (BENCH_YEARS_DAYS) prints its last day too.
if (!CHECKPOINTS.has(DAYS)) CHECKPOINTS.set(DAYS, `day ${DAYS}`);
const log = (text: string) => process.stdout.write(text + '\n');

interface Node {
  child: ChildProcess;
  base: string;
  dataDir: string;
}

let offsetMs = 0;

async function startNode(dataDir: string, port: number): Promise<Node> {
  const child = fork(join(PROJECT_ROOT, 'test/bench/years-node.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', BENCH_CLOCK_OFFSET_MS: String(offsetMs) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const base = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server in ${dataDir} exited with ${code}`)));
    child.on('message', (message: { ready?: string }) => {
      if (message.ready) resolve(message.ready);
    });
  });
  child.removeAllListeners('exit');
  return { child, base, dataDir };
}

async function stopNode(node: Node): Promise<void> {
  await new Promise<void>((resolve) => {
    node.child.once('exit', () => resolve());
    node.child.send({ stop: true });
  });
}

async function advance(nodes: Node[], ms: number): Promise<void> {
  offsetMs += ms;
  await Promise.all(
    nodes.map(
      (node) =>
        new Promise<void>((resolve) => {
          node.child.once('message', () => resolve());
          node.child.send({ advance: ms });
        }),
    ),
  );
}

async function call(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

const fileBytes = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const hubDir = mkdtempSync(join(tmpdir(), 'retail-years-hub-'));
const storeDir = mkdtempSync(join(tmpdir(), 'retail-years-store-'));
const backupsDir = mkdtempSync(join(tmpdir(), 'retail-years-backups-'));

log(`bench:years: ${DAYS} days, ${PRODUCTS} products, ${SALES_PER_DAY} sales and ${EDITS_PER_DAY} head-office edits a day, ${DAYS_PER_STEP} day(s) per step, restore on day ${RESTORE_DAY}`);
// `sync configure` and `restore` run as an installation runs them, compiled.
const removeCompiled = await compileProduct();
const hubDb = openDatabase(join(hubDir, DATABASE_FILE), { synchronous: 'NORMAL' });
const hubOrg = createServices({ db: hubDb, clock: systemClock }).organizations.create({ name: 'Head office', features: ['barcode-aliases'] });
const catalog = generateCatalog(hubDb, hubOrg.id, { products: PRODUCTS, orders: 0, categories: 40, suppliers: 50, stores: 5, aliasShare: 0.05, orderDays: 1 });
hubDb.close();

const storeDb = openDatabase(join(storeDir, DATABASE_FILE), { synchronous: 'NORMAL' });
const storeOrg = createServices({ db: storeDb, clock: systemClock }).organizations.create({ name: 'Filiale', features: ['barcode-aliases'] });
storeDb.close();

const hubPort = await freePort();
const storePort = await freePort();
const hub = await startNode(hubDir, hubPort);
let store = await startNode(storeDir, storePort);
// Pushes and pulls every few seconds of the clock: a step's sales reach the hub, and a pull follows
// them, without the benchmark waiting out the default minute between pulls after every step.
const configured = await runCli(storeDir, ['sync', 'configure', storeOrg.id, '--url', hub.base, '--key', hubOrg.writeKey, '--interval', '1', '--pull-interval', '2', '--json']);
if (configured.status !== 0) throw new Error(`sync configure: ${configured.stderr}`);

const syncStatus = async () => (await call(store.base, storeOrg.writeKey, 'GET', '/sync')).json.data as Record<string, any>;
const simulatedNow = () => Date.now() + offsetMs;

/** Waits until the store has pushed everything and pulled at least once since `since` (simulated ms). */
async function settle(since: number): Promise<Record<string, any>> {
  return waitFor(
    async () => {
      const status = await syncStatus();
      const pulled = status.lastPullAt && Date.parse(status.lastPullAt) >= since;
      return status.pending === 0 && pulled ? status : undefined;
    },
    600_000,
    'the store pushing and pulling',
  );
}

log('First full pull of the catalog…');
const firstPull = Date.now();
await settle(simulatedNow() - 1000);
const stores = (await call(store.base, storeOrg.writeKey, 'GET', '/stores')).json.data as { id: string }[];
const storeId = stores[0]!.id;
const rnd = random(3);
const sample = Array.from({ length: 300 }, () => catalog.barcodes[rnd.int(catalog.barcodes.length)]!);
const localIds: string[] = [];
for (const code of sample) {
  const found = (await call(store.base, storeOrg.writeKey, 'GET', `/products?barcode=${encodeURIComponent(code)}`)).json.data as { id: string }[];
  if (found[0]) localIds.push(found[0].id);
}
log(`  ${PRODUCTS} products pulled in ${((Date.now() - firstPull) / 1000).toFixed(1)} s; selling ${localIds.length} of them`);

const sale = () => ({ store: storeId, products: [{ productId: localIds[rnd.int(localIds.length)]!, quantity: 1 + rnd.int(3) }] });

async function sell(count: number, concurrency = 4): Promise<void> {
  let left = count;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left > 0) {
        left -= 1;
        const res = await call(store.base, storeOrg.writeKey, 'POST', '/orders', sale());
        if (res.status !== 201 && res.status !== 200) throw new Error(`POST /orders: ${res.status} ${JSON.stringify(res.json)}`);
      }
    }),
  );
}

async function editAtHeadOffice(count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const id = catalog.productIds[rnd.int(catalog.productIds.length)]!;
    const res = await call(hub.base, hubOrg.writeKey, 'POST', `/products/${id}`, { price: 100 + rnd.int(5000) });
    if (res.status !== 200) throw new Error(`head-office edit: ${res.status} ${JSON.stringify(res.json)}`);
  }
}

async function latencies(times: number, request: () => Promise<{ status: number }>): Promise<number> {
  const taken: number[] = [];
  for (let i = 0; i < times; i += 1) {
    const started = performance.now();
    const res = await request();
    taken.push(performance.now() - started);
    if (res.status >= 300) throw new Error(`measured request answered ${res.status}`);
  }
  return percentile(taken.sort((a, b) => a - b), 99);
}

interface Row {
  label: string;
  day: number;
  database: number;
  wal: number;
  rss: number;
  lookupP99: number;
  orderP99: number;
  hubDatabase: number;
  hubRows: string;
}
const rows: Row[] = [];

/** What the hub keeps, read through a connection of its own: its orders against its outbox and idempotency rows. */
function hubRowCounts(): string {
  const db = new Database(join(hubDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return `${count('orders')} orders, ${count('outbox')} outbox rows, ${count('idempotency_keys')} idempotency rows`;
  } finally {
    db.close();
  }
}

async function checkpoint(label: string, day: number): Promise<void> {
  await settle(simulatedNow() - 1000);
  const lookupP99 = await latencies(1000, () => call(store.base, storeOrg.writeKey, 'GET', `/products?barcode=${encodeURIComponent(sample[rnd.int(sample.length)]!)}`));
  const orderP99 = await latencies(200, () => call(store.base, storeOrg.writeKey, 'POST', '/orders', sale()));
  const row: Row = {
    label,
    day,
    database: fileBytes(join(storeDir, DATABASE_FILE)),
    wal: fileBytes(join(storeDir, `${DATABASE_FILE}-wal`)),
    rss: rssMb(store.child.pid!),
    lookupP99,
    orderP99,
    hubDatabase: fileBytes(join(hubDir, DATABASE_FILE)) + fileBytes(join(hubDir, `${DATABASE_FILE}-wal`)),
    hubRows: hubRowCounts(),
  };
  rows.push(row);
  log(`  ${label}: store database ${mb(row.database)} MB, WAL ${mb(row.wal)} MB, RSS ${row.rss.toFixed(0)} MB, barcode p99 ${lookupP99.toFixed(1)} ms, POST /orders p99 ${orderP99.toFixed(1)} ms; hub database ${mb(row.hubDatabase)} MB (${row.hubRows})`);
}

const started = Date.now();
let lastBackup: string | undefined;
let parkedAfterRestore = 0;
let restored = false;
for (let day = 1; day <= DAYS; day += DAYS_PER_STEP) {
  const stepDays = Math.min(DAYS_PER_STEP, DAYS - day + 1);
  const dayStart = simulatedNow();
  await editAtHeadOffice(EDITS_PER_DAY * stepDays);
  await sell(SALES_PER_DAY * stepDays);
  await settle(dayStart);
  const lastDay = day + stepDays - 1;
  let backedUp = false;
  if (Math.floor(lastDay / 7) > Math.floor((day - 1) / 7)) {
    // The weekly backup, then the PC is switched off and on again.
    const target = join(backupsDir, `day-${lastDay}`);
    await backupDataFolder(storeDir, target);
    if (lastBackup) rmSync(lastBackup, { recursive: true, force: true });
    lastBackup = target;
    backedUp = true;
    await stopNode(store);
    store = await startNode(storeDir, storePort);
  }
  if (!restored && backedUp && lastDay >= RESTORE_DAY && lastBackup) {
    // The PC's disk fails the day after a backup, once that day's sales have reached
    // the hub: staff restore the backup and the store sells on.
    restored = true;
    const lostDay = simulatedNow();
    await sell(SALES_PER_DAY);
    await settle(lostDay);
    await stopNode(store);
    const result = await runCli(storeDir, ['restore', lastBackup, '--replace', '--json']);
    if (result.status !== 0) throw new Error(`restore: ${result.stderr}`);
    store = await startNode(storeDir, storePort);
    await sell(SALES_PER_DAY);
    await settle(lostDay);
    log(`  day ${lastDay}: ${SALES_PER_DAY} sales pushed, then the backup of the night before restored; ${SALES_PER_DAY} more sales`);
  }
  for (const [checkpointDay, label] of CHECKPOINTS) {
    if (checkpointDay >= day && checkpointDay <= lastDay) await checkpoint(label, checkpointDay);
  }
  await advance([hub, store], stepDays * DAY_MS);
  if (lastDay % 30 === 0 || lastDay === DAYS) log(`  day ${lastDay} of ${DAYS}, ${((Date.now() - started) / 1000).toFixed(0)} s so far`);
}
const final = await settle(simulatedNow() - 1000);
parkedAfterRestore = final.parked as number;

log('');
log('| point | store database | WAL | RSS | barcode p99 | POST /orders p99 | hub database | hub keeps |');
log('|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  log(`| ${row.label} | ${mb(row.database)} MB | ${mb(row.wal)} MB | ${row.rss.toFixed(0)} MB | ${row.lookupP99.toFixed(1)} ms | ${row.orderP99.toFixed(1)} ms | ${mb(row.hubDatabase)} MB | ${row.hubRows} |`);
}
const first = rows[0];
const year1 = rows.find((r) => r.label === 'year 1');
const last = rows[rows.length - 1];
if (year1 && last && last !== year1) {
  const ratio = (last.database + last.wal) / (year1.database + year1.wal);
  log(`store database ${last.label} / year 1: ${ratio.toFixed(2)} (target ≤ 1.2) ${ratio <= 1.2 ? 'OK' : 'NO'}`);
}
if (first && last && last !== first) {
  const lookup = last.lookupP99 / first.lookupP99;
  const order = last.orderP99 / first.orderP99;
  log(`p99 ${last.label} / month 1: barcode ${lookup.toFixed(2)}, POST /orders ${order.toFixed(2)} (target ≤ 1.2) ${lookup <= 1.2 && order <= 1.2 ? 'OK' : 'NO'}`);
}
log(`parked after the restore: ${parkedAfterRestore} (target 0) ${parkedAfterRestore === 0 ? 'OK' : 'NO'}`);
log(`whole run: ${((Date.now() - started) / 1000 / 60).toFixed(1)} min`);

await stopNode(store);
await stopNode(hub);
for (const dir of [hubDir, storeDir, backupsDir]) rmSync(dir, { recursive: true, force: true });
removeCompiled();
