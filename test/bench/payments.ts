import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { spawn } from 'node:child_process';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { simulatorCall, type ReadyLine, type SimulatedTransaction } from '../support/terminal-simulator.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, spawnProcess, waitFor } from './server-process.js';

/**
 * `npm run bench:payments`: the time the product adds on top of the card
 * terminal, from the terminal's approval to the order stored, as a kiosk sees
 * it (it follows the payment with GET every POLL_MS, then records the sale),
 * over PAYMENTS payments; and the time to settle a lost answer (the terminal
 * approved, its answer never came, the server asks for the status). The server
 * runs built, in its own process, as `npm start` runs it; the terminal
 * simulator in another.
 */
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 200);
const LOST = Number(process.env.BENCH_LOST ?? 10);
const POLL_MS = 10;
const log = (text: string) => process.stdout.write(text + '\n');

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-payments-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;

const db = openDatabase(join(dir, DATABASE_FILE));
const services = createServices({ db, clock: systemClock });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Filiale' });
const product = services.products.create(caller, { name: 'Gipfeli', price: 140, taxCategory: '2.6' });
db.close();

const { command, args } = buildAndGetStartCommand();
const sim = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'main', 'terminal-sim', 'start.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
const ready = await new Promise<ReadyLine>((resolve) => createInterface({ input: sim.stdout! }).once('line', (line) => resolve(JSON.parse(line) as ReadyLine)));
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TERMINAL_ALLOW_ADDRESSES: 'loopback' }, PROJECT_ROOT);
await waitFor(async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined), 60_000, 'the server answering');

const call = async (key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const json = (await res.json()) as any;
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
};
const simulator = simulatorCall(ready);

await call(org.writeKey, 'POST', '/terminals', { ...ready, store, name: 'Terminal', protocol: 'nexo-local' });
const kioskKey = (await call(org.writeKey, 'POST', '/keys', { kind: 'kiosk', store, name: 'Kiosk' })).key as string;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One card sale as the kiosk makes it; the instant the terminal approved and the instants the payment showed approved and the order was stored. */
async function cardSale(reference: string, outcome: string) {
  await simulator('POST', '/simulator/next', { outcome, delayMs: 0 });
  const payment = (await call(kioskKey, 'POST', '/payments', { store, amount: 140, currency: 'CHF', reference })).data;
  let state = payment.state as string;
  while (state === 'pending' || state === 'unknown') {
    await sleep(POLL_MS);
    state = (await call(kioskKey, 'GET', `/payments/${payment.id}`)).data.state;
  }
  const seen = Date.now();
  if (state !== 'approved') throw new Error(`payment ${payment.id} ended ${state}`);
  await call(kioskKey, 'POST', '/orders', { store, orderId: reference, payment: payment.id, products: [{ productId: product, quantity: 1 }] });
  const stored = Date.now();
  const transactions = (await simulator('GET', '/simulator/transactions')) as SimulatedTransaction[];
  const approvedAt = Date.parse(transactions.find((t) => t.reference === reference)!.decidedAt);
  return { toSeen: seen - approvedAt, toStored: stored - approvedAt };
}

const summary = (name: string, values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  log(`${name.padEnd(52)} p50 ${percentile(sorted, 50)} ms, p95 ${percentile(sorted, 95)} ms, max ${sorted.at(-1)} ms`);
};

try {
  log(`${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; ${PAYMENTS} approved payments, then ${LOST} lost answers; the kiosk polls every ${POLL_MS} ms`);
  for (let i = 0; i < 5; i += 1) await cardSale(`warm-${i}`, 'approve');
  const approved = [];
  for (let i = 0; i < PAYMENTS; i += 1) approved.push(await cardSale(`sale-${i}`, 'approve'));
  summary('approval -> payment approved at the kiosk', approved.map((r) => r.toSeen));
  summary('approval -> order stored (target p95 <= 150 ms)', approved.map((r) => r.toStored));
  const lost = [];
  for (let i = 0; i < LOST; i += 1) lost.push(await cardSale(`lost-${i}`, 'lose-answer'));
  summary('lost answer: approval -> payment approved', lost.map((r) => r.toSeen));
} finally {
  await server.stop();
  sim.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
