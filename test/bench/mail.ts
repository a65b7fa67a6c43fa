import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { queueMail } from '../../main/mail/queue-mail.js';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { immediateTransaction } from '../../main/storage/transactions.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:mail`: MAILS mails queued at once, delivered by the server
 * (built, in its own process, as `npm start` runs it) to the mail catcher
 * (another process); meanwhile a scanner looks a barcode up every 20 ms, and
 * its longest wait is compared with the same lookups while the queue is idle.
 * Then the cost of queuing a mail inside a sale's transaction, against a
 * whole POST /orders.
 */
const MAILS = Number(process.env.BENCH_MAILS ?? 10_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 300);
const SCAN_EVERY_MS = 20;
const log = (text: string) => process.stdout.write(text + '\n');

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-mail-'));
const port = await freePort();
const smtpPort = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;

const seed = openDatabase(join(dir, DATABASE_FILE));
const services = createServices({ db: seed, clock: systemClock });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Filiale' });
const product = services.products.create(caller, { name: 'Gipfeli', price: 140, taxCategory: '2.6', barcode: '7610000000017' });
seed.close();

const { command, args } = buildAndGetStartCommand();
const catcher = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'main', 'mail-catcher', 'start.js'), '--port', String(smtpPort)], { stdio: ['ignore', 'pipe', 'ignore'] });
let caught = 0;
createInterface({ input: catcher.stdout! }).on('line', () => (caught += 1));
const server = spawnProcess(
  command,
  args,
  { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'bench@example.ch' },
  PROJECT_ROOT,
);
await waitFor(async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined), 60_000, 'the server answering');
await waitFor(async () => ((await fetch(`http://127.0.0.1:${smtpPort + 1}/mails`).catch(() => undefined))?.ok ? true : undefined), 30_000, 'the catcher answering');

const headers = { authorization: `Bearer ${org.writeKey}`, 'content-type': 'application/json' };
const lookup = async () => {
  const started = performance.now();
  const res = await fetch(`${base}/products?barcode=7610000000017&store=${store}`, { headers });
  await res.arrayBuffer();
  return performance.now() - started;
};

/** A scanner's lookups every SCAN_EVERY_MS until `until` resolves; answers each wait. */
async function scanWhile(until: Promise<unknown>): Promise<number[]> {
  const waits: number[] = [];
  let done = false;
  void until.then(() => (done = true));
  while (!done) {
    waits.push(await lookup());
    await new Promise((r) => setTimeout(r, SCAN_EVERY_MS));
  }
  return waits;
}

const summary = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  log(`${name.padEnd(44)} ${String(values.length).padStart(6)} lookups, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
  return sorted.at(-1)!;
};

try {
  log(`${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; ${MAILS} mails, a barcode lookup every ${SCAN_EVERY_MS} ms`);
  for (let i = 0; i < 50; i += 1) await lookup();
  const idleMax = summary('idle queue', await scanWhile(new Promise((r) => setTimeout(r, 10_000))));

  // The mails are queued by another connection, as the CLI or a settlement would; the server's sender finds them within its look interval.
  const writer = openDatabase(join(dir, DATABASE_FILE));
  const queuedAt = performance.now();
  immediateTransaction(writer, () => {
    for (let i = 0; i < MAILS; i += 1) queueMail(writer, { orgId: org.id, kind: 'test', to: `owner${i}@example.ch`, subject: `Bench ${i}`, text: 'A mail of the benchmark.\n', at: new Date() });
  });
  writer.close();
  const delivered = waitFor(async () => (caught >= MAILS ? true : undefined), 1_800_000, `${MAILS} mails at the catcher`);
  const busyMax = summary('while the queue is delivered', await scanWhile(delivered));
  const seconds = (performance.now() - queuedAt) / 1000;
  log(`${MAILS} mails delivered in ${seconds.toFixed(1)} s (${(MAILS / seconds).toFixed(0)} per second)`);
  log(`longest lookup: ${busyMax.toFixed(1)} ms during delivery vs ${idleMax.toFixed(1)} ms idle: +${(busyMax - idleMax).toFixed(1)} ms (target under +50 ms)`);

  // POST /orders, whole, as a till sends it.
  const orderTimes: number[] = [];
  for (let i = 0; i < ORDERS; i += 1) {
    const started = performance.now();
    const res = await fetch(`${base}/orders`, { method: 'POST', headers, body: JSON.stringify({ store, products: [{ productId: product, quantity: 1 }] }) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`POST /orders answered ${res.status}`);
    orderTimes.push(performance.now() - started);
  }
  const orderMean = orderTimes.reduce((a, b) => a + b, 0) / orderTimes.length;

  // queueMail inside an open transaction: what a sale that queues a mail adds to its own transaction (the commit is the sale's).
  const measure = openDatabase(join(dir, 'queue-cost.sqlite'));
  const rounds = 5_000;
  let queueMs = 0;
  immediateTransaction(measure, () => {
    const started = performance.now();
    for (let i = 0; i < rounds; i += 1) queueMail(measure, { orgId: org.id, kind: 'alert', to: 'admin@example.ch', subject: 'Alert', text: 'x'.repeat(400), headers: { 'X-Alert-Kind': 'disk-low' }, at: new Date() });
    queueMs = (performance.now() - started) / rounds;
  });
  measure.close();
  log(`queueMail in the sale's transaction: ${(queueMs * 1000).toFixed(1)} µs; POST /orders: ${orderMean.toFixed(2)} ms mean; share ${((queueMs / orderMean) * 100).toFixed(2)} % (target under 5 %)`);
} finally {
  await server.stop();
  catcher.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
