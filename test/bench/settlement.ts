import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OrderLine } from '../../shared/api/orders.js';
import { newId } from '../../main/rules/ids.js';
import type { Caller } from '../../main/services/caller.js';
import type { Clock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { immediateTransaction } from '../../main/storage/transactions.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:settlement`: a year of a farm shop with 30 suppliers at 500
 * sales a day (about 180,000 orders of 1-4 lines), then, through a server
 * started as `npm start` runs it, the settlement of one month, of the next,
 * and, on a copy of the same data, of the whole year at once. Meanwhile a
 * scanner looks a barcode up every 20 ms; its longest wait is compared with
 * the same lookups on the idle server, measured first in the same run.
 */
const SUPPLIERS = 30;
const PER_DAY = Number(process.env.BENCH_SALES_PER_DAY ?? 500);
const YEAR = 2025;
const SCAN_EVERY_MS = 20;
const BARCODE = '7610000000017';
const log = (text: string) => process.stdout.write(text + '\n');
const fixedClock = (at: Date): Clock => ({ now: () => new Date(at) });

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-settlement-'));
const monthDir = join(dir, 'month');
const yearDir = join(dir, 'year');
mkdirSync(monthDir);
mkdirSync(yearDir);
const db = openDatabase(join(monthDir, DATABASE_FILE), { synchronous: 'NORMAL' });
const services = createServices({ db, clock: fixedClock(new Date(`${YEAR}-01-01T00:00:00Z`)) });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Hofladen', generalMargin: 20 });
services.products.create(caller, { name: 'Bergkäse', price: 890, taxCategory: '2.6', barcode: BARCODE });
const suppliers = Array.from({ length: SUPPLIERS }, (_, i) =>
  services.suppliers.create(caller, { name: `Hof ${i}`, iban: 'CH5604835012345678009', payoutsEnabled: true, ...(i % 3 === 0 ? { supplierMargin: 15 } : {}) }),
);

log(`${PER_DAY} sales a day for a year, ${SUPPLIERS} suppliers…`);
const started = performance.now();
let orders = 0;
for (let day = 0; day < 365; day += 1) {
  const dayStart = Date.UTC(YEAR, 0, 1) + day * 86_400_000 + 7 * 3_600_000;
  immediateTransaction(db, () => {
    for (let i = 0; i < PER_DAY; i += 1) {
      const at = new Date(dayStart + i * 60_000).toISOString();
      const lines: OrderLine[] = Array.from({ length: 1 + ((i * 7 + day) % 4) }, (_, n) => {
        const price = 150 + ((i * 31 + n * 17) % 900);
        return {
          productId: `p${(i + n) % 300}`,
          quantity: n === 1 ? 0.355 : 1,
          title: `Artikel ${(i + n) % 300}`,
          price,
          netPrice: price - Math.round((price * 0.026) / 1.026),
          tax: Math.round((price * 0.026) / 1.026),
          taxRate: 0.026,
          type: 'product',
          supplier: suppliers[(i + n * 11 + day) % SUPPLIERS]!,
          deposit: 0,
        };
      });
      const id = newId();
      const price = lines.reduce((s, l) => s + l.price, 0);
      services.stores.orders.insert(org.id, { id, orderId: id, store, price, paymentState: 'successful', orderDate: at, deleted: false, products: lines }, at);
      orders += 1;
    }
  });
}
log(`  ${orders} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);

db.prepare(`VACUUM INTO ?`).run(join(yearDir, DATABASE_FILE));
db.close();

const { command, args } = buildAndGetStartCommand();
const headers = { authorization: `Bearer ${org.writeKey}`, 'content-type': 'application/json' };

/** A scanner's lookups every SCAN_EVERY_MS until `until` settles; answers each wait. */
async function scanWhile(base: string, until: Promise<unknown>): Promise<number[]> {
  const waits: number[] = [];
  let done = false;
  void until.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    const started = performance.now();
    const res = await fetch(`${base}/products?barcode=${BARCODE}`, { headers });
    await res.arrayBuffer();
    waits.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, SCAN_EVERY_MS));
  }
  return waits;
}

const longest = (name: string, waits: number[]) => {
  const sorted = [...waits].sort((a, b) => a - b);
  log(`  ${name.padEnd(34)} ${String(waits.length).padStart(5)} lookups, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, longest ${sorted.at(-1)!.toFixed(1)} ms`);
  return sorted.at(-1)!;
};

/** Starts a server on `dataDir` and measures the idle lookups, then each settlement up to `tos` with the lookups meanwhile. */
async function settleOn(dataDir: string, tos: { name: string; to: string; targetMs?: number }[]): Promise<void> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, PROJECT_ROOT);
  try {
    await waitFor(async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined), 120_000, 'the server answering');
    const idle = longest('idle server', await scanWhile(base, new Promise((r) => setTimeout(r, 5_000))));
    for (const { name, to, targetMs } of tos) {
      const started = performance.now();
      const settled = (async () => {
        const res = await fetch(`${base}/settlements`, { method: 'POST', headers, body: JSON.stringify({ to }) });
        const body = (await res.json()) as { id?: string };
        if (res.status !== 201 || !body.id) throw new Error(`POST /settlements answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
        return { id: body.id, ms: performance.now() - started };
      })();
      const busy = longest(`while settling ${name}`, await scanWhile(base, settled));
      const { id, ms } = await settled;
      const got = (await (await fetch(`${base}/settlements/${id}`, { headers })).json()) as { data: { suppliers: { lines: number }[] } };
      const lines = got.data.suppliers.reduce((sum, s) => sum + s.lines, 0);
      log(`${name}: ${lines} lines in ${ms.toFixed(0)} ms${targetMs ? ` (target < ${targetMs} ms)` : ''}`);
      log(`  longest lookup ${busy.toFixed(1)} ms while settling vs ${idle.toFixed(1)} ms idle: +${(busy - idle).toFixed(1)} ms (target under +50 ms)`);
    }
  } finally {
    await server.stop();
  }
}

try {
  log(`${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; a barcode lookup every ${SCAN_EVERY_MS} ms`);
  await settleOn(monthDir, [
    { name: 'month (January)', to: `${YEAR}-02-01T00:00:00.000Z`, targetMs: 2000 },
    { name: 'next month (February, January settled)', to: `${YEAR}-03-01T00:00:00.000Z` },
  ]);
  await settleOn(yearDir, [{ name: 'year', to: `${YEAR + 1}-01-01T00:00:00.000Z`, targetMs: 10_000 }]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
