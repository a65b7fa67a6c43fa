import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { percentile, timeSequential } from './load.js';
import { buildAndGetStartCommand, cpuMs, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:report`: the daily report of a busy day (10,000 orders in the
 * store's day, as many on other days and in another store) from a real server
 * in its own process, next to a baseline measured in the same run: one page of
 * 100 of the same day's orders from `GET /orders`.
 */
const ORDERS = Number(process.env.BENCH_ORDERS ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const DAY = '2026-06-10';
const log = (text: string) => process.stdout.write(text + '\n');

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-report-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;

log(`${ORDERS} orders on ${DAY} in one store, ${ORDERS} on other days and in another store…`);
const db = openDatabase(join(dir, DATABASE_FILE), { synchronous: 'NORMAL' });
const services = createServices({ db, clock: systemClock });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Filiale' });
const other = services.retailStores.create(caller, { name: 'Andere' });
const products = Array.from({ length: 50 }, (_, i) =>
  services.products.create(caller, { name: `Artikel ${i}`, price: 100 + i * 37, taxCategory: i % 5 === 0 ? '8.1' : '2.6', depositProduct: i % 7 === 0 ? 30 : undefined }),
);
const METHODS = [{ paymentMethod: 'cash' }, { paymentMethod: 'card', paymentBrand: 'TWINT' }, { paymentMethod: 'card', paymentBrand: 'VISA' }];
const dayStart = Date.parse(`${DAY}T05:00:00Z`);
const sell = (storeId: string, at: number, i: number) =>
  services.orders.create(caller, {
    store: storeId,
    orderDate: new Date(at).toISOString(),
    ...METHODS[i % METHODS.length],
    products: Array.from({ length: 1 + (i % 5) }, (_, line) => ({ productId: products[(i * 7 + line) % products.length]!, quantity: 1 + (line % 3) })),
  });
db.transaction(() => {
  for (let i = 0; i < ORDERS; i += 1) sell(store, dayStart + Math.floor((i * 14 * 3600_000) / ORDERS), i);
  for (let i = 0; i < ORDERS; i += 1) sell(i % 2 === 0 ? other : store, dayStart + (i % 2 === 0 ? 0 : 86_400_000 * (1 + (i % 20))) + i * 1000, i);
})();
db.close();

const { command, args } = buildAndGetStartCommand();
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, PROJECT_ROOT);
await waitFor(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 60_000, 'the server answering');

const get = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${org.readKey}` } });
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: { sales?: number } };
};
const reportPath = `/reports/daily?store=${store}&date=${DAY}`;
const sales = (await get(reportPath)).data.sales;
if (sales !== ORDERS) throw new Error(`the report counts ${sales} sales, not ${ORDERS}`);
const pagePath = `/orders?start=${DAY}T00:00:00Z&end=${DAY}T23:59:59Z&limit=100`;
for (let i = 0; i < 20; i += 1) await Promise.all([get(reportPath), get(pagePath)]);

// CPU time of the server per request hardly moves when other processes compete for the cores; wall time does.
const pid = server.child.pid!;
const cpuBefore = cpuMs(pid);
const report = (await timeSequential(REQUESTS, () => get(reportPath).then(() => undefined))).sort((a, b) => a - b);
const reportCpu = (cpuMs(pid) - cpuBefore) / REQUESTS;
const pageCpuBefore = cpuMs(pid);
const page = (await timeSequential(REQUESTS, () => get(pagePath).then(() => undefined))).sort((a, b) => a - b);
const pageCpu = (cpuMs(pid) - pageCpuBefore) / REQUESTS;
await server.stop();
rmSync(dir, { recursive: true, force: true });

const ms = (value: number) => `${value.toFixed(1)} ms`;
const p50 = percentile(report, 50);
const p95 = percentile(report, 95);
log(`\nMachine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)}`);
log('\n| figure | measured | baseline (same run): 100 orders of GET /orders | ratio | target | met |\n|---|---|---|---|---|---|');
log(
  `| GET /reports/daily, ${ORDERS} orders in the day, p50 / p95 | ${ms(p50)} / ${ms(p95)} | ${ms(percentile(page, 95))} p95 | ` +
    `${(p95 / percentile(page, 95)).toFixed(1)} x | < 100 ms | ${p95 < 100 ? 'yes' : 'NO'} |`,
);
log(`| server CPU per report | ${ms(reportCpu)} | ${ms(pageCpu)} | ${(reportCpu / pageCpu).toFixed(1)} x | < 100 ms | ${reportCpu < 100 ? 'yes' : 'NO'} |`);
