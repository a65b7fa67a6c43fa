import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { createProductStore, type ProductPageQuery } from '../../main/storage/products.js';
import { FULL_SIZE, generateCatalog } from './catalog.js';

/**
 * `npx tsx test/bench/feed-offload.ts`: what answering the products' change
 * feed on a worker thread (its own read-only connection on the WAL, the page
 * serialised there) would save the event loop, against reading and
 * serialising it on the event loop as the server does. Two pages: a steady
 * store PC's pull (nothing changed since its last one) and a full page of a
 * first pull (1,000 products). Main-thread time is the event loop's active
 * time; process CPU counts both threads.
 */
const PRODUCTS = 20_000;
const IN_FLIGHT = 8;
const dir = mkdtempSync(join(tmpdir(), 'retail-bench-offload-'));
const file = join(dir, DATABASE_FILE);
const db = openDatabase(file, { synchronous: 'NORMAL' });
const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Offload', features: [] });
generateCatalog(db, org.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0, stores: 1 });
const products = createProductStore(db);

const pages: { name: string; query: ProductPageQuery; runs: number }[] = [
  { name: 'steady pull (no change)', query: { orgId: org.id, limit: 1001, changedSince: new Date(Date.now() + 60_000).toISOString() }, runs: 20_000 },
  { name: 'first pull (1,000 products)', query: { orgId: org.id, limit: 1001, changedSince: '1970-01-01T00:00:00.000Z' }, runs: 100 },
];

const worker = new Worker(new URL('./feed-offload-worker.mjs', import.meta.url), { workerData: { file } });
await new Promise((resolve) => worker.once('message', resolve));
const waiting = new Map<number, (json: string) => void>();
worker.on('message', (answer: { id: number; json: string }) => {
  waiting.get(answer.id)?.(answer.json);
  waiting.delete(answer.id);
});
let asked = 0;
const onWorker = (query: ProductPageQuery) =>
  new Promise<string>((resolve) => {
    asked += 1;
    waiting.set(asked, resolve);
    worker.postMessage({ id: asked, query });
  });

/** Main-thread µs and process CPU µs per page, `IN_FLIGHT` pages at a time. */
async function measure(runs: number, page: () => Promise<unknown> | unknown) {
  for (let i = 0; i < 20; i++) await page();
  const loop = performance.eventLoopUtilization();
  const cpu = process.cpuUsage();
  let started = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (started < runs) {
        started += 1;
        await page();
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  return { mainUs: (performance.eventLoopUtilization(loop).active * 1000) / runs, cpuUs: (used.user + used.system) / runs };
}

process.stdout.write('| page | on the event loop: main thread / process CPU µs | on a worker: main thread / process CPU µs |\n|---|---|---|\n');
for (const { name, query, runs } of pages) {
  const inline = await measure(runs, () => JSON.stringify({ data: products.page(query) }));
  const offloaded = await measure(runs, () => onWorker(query));
  process.stdout.write(`| ${name} | ${inline.mainUs.toFixed(1)} / ${inline.cpuUs.toFixed(1)} | ${offloaded.mainUs.toFixed(1)} / ${offloaded.cpuUs.toFixed(1)} |\n`);
}
await worker.terminate();
db.close();
rmSync(dir, { recursive: true, force: true });
