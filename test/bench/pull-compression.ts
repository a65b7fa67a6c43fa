import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { FEED_ORIGIN, PAGE } from '../../main/sync/pull-walk.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { FULL_SIZE, generateCatalog } from './catalog.js';
import { startCountingProxy, trafficSince } from './counting-proxy.js';

/**
 * `npm run bench:pull`: the bytes and time of a full pull of the product
 * feed (`BENCH_PRODUCTS`, default 100,000), walked page by page as the sync
 * worker walks it, once without compression and once asking for brotli or
 * gzip as the worker does, through a counting proxy, in the same run.
 */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const log = (text: string) => process.stdout.write(text + '\n');

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-pull-'));
const db = openDatabase(join(dir, DATABASE_FILE), { synchronous: 'NORMAL' });
const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'HQ', features: [] });
generateCatalog(db, org.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0 });
db.close();

const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'main/start.ts')], {
  cwd: PROJECT_ROOT,
  env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
const base = `http://127.0.0.1:${port}/api/v1`;
for (let ready = false; !ready; ) {
  ready = await fetch(`${base}/health`).then((r) => r.ok, () => false);
  if (!ready) await new Promise((r) => setTimeout(r, 200));
}
const proxy = await startCountingProxy(base);

async function walk(acceptEncoding: string): Promise<{ rows: number; ms: number; bytes: number; requests: number }> {
  const before = proxy.traffic();
  const started = performance.now();
  let rows = 0;
  let cursor: string | undefined;
  do {
    const query = new URLSearchParams({ limit: String(PAGE), updatedSince: FEED_ORIGIN, ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${proxy.url}/products?${query}`, { headers: { authorization: `Bearer ${org.readKey}`, 'accept-encoding': acceptEncoding } });
    const page = (await res.json()) as { data: unknown[]; meta?: { nextCursor?: string } };
    rows += page.data.length;
    cursor = page.meta?.nextCursor;
  } while (cursor);
  const traffic = trafficSince(before, proxy.traffic());
  return { rows, ms: performance.now() - started, bytes: traffic.bytes, requests: traffic.requests };
}

const plain = await walk('identity');
const compressed = await walk('br, gzip');
const row = (name: string, r: typeof plain) =>
  `| ${name.padEnd(27)} | ${String(r.requests).padStart(8)} | ${String(r.rows).padStart(7)} | ${(r.bytes / 1e6).toFixed(1).padStart(8)} MB | ${(r.ms / 1000).toFixed(1).padStart(6)} s | ${((r.bytes * 8) / 300_000 / 60).toFixed(1).padStart(12)} min |`;
log(`Full pull of the product feed, ${PRODUCTS} products, same run:`);
log('| pull                        | requests |    rows |   bytes     |   time   | at 300 kbit/s    |');
log('|-----------------------------|----------|---------|-------------|----------|------------------|');
log(row('before: no compression', plain));
log(row('after: brotli (br, gzip)', compressed));
log(`Compressed to ${((compressed.bytes / plain.bytes) * 100).toFixed(1)} % of the bytes.`);
await proxy.close();
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(dir, { recursive: true, force: true });
