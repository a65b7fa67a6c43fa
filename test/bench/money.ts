import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { createApiClient } from '../../renderer/kiosk/api-client.js';
import { CardPayment, type TerminalPayment } from '../../renderer/kiosk/card-payment.js';
import { sendSale } from '../../renderer/kiosk/checkout.js';
import { freePort } from '../support/processes.js';
import { simulatorCall, type ReadyLine, type SimulatedTransaction } from '../support/terminal-simulator.js';
import { startFaultProxy } from './fault-proxy.js';
import { buildAndGetStartCommand, waitFor } from './server-process.js';

/**
 * `npm run bench:money`: the chaos run. The kiosk's own payment code
 * (renderer/kiosk/card-payment.ts, and checkout.ts to record the sale) makes
 * SALES card sales against the built server and the terminal simulator, each
 * in a process of its own, while
 * - the simulator decides each payment at random (approve, late approval,
 *   decline, customer cancel, busy, answer lost, request never arrived),
 * - the kiosk's answers are lost at every step (the 202 of POST /payments, the
 *   payment's status, the sale's lookup, the order's answer), the request
 *   having reached the server,
 * - the kiosk's network drops for 0.5 to 3 s,
 * - the server is killed (SIGKILL) at random moments of a sale and restarted;
 * then staff refund some of the approved sales. At the end the approvals and
 * refunds the simulator holds are counted against the server's payments and
 * orders. It prints the counts and exits 1 on any double charge, lost
 * approval, sale not recorded, refund the server does not hold as the
 * terminal does, difference in totals, or payment left unresolved.
 *
 * Refunds meet faults too: two refunds of one payment at once, and refunds
 * whose terminal answer is lost; MONEY_REFUND_FAULTS=0 leaves them out.
 */
const SALES = Number(process.env.MONEY_SALES ?? 200);
const SEED = Number(process.env.MONEY_SEED ?? Date.now() % 1_000_000);
const REFUND_FAULTS = process.env.MONEY_REFUND_FAULTS !== '0';
const UNIT = 140;
const SETTLE_MS = 180_000;
/** The run's folder (database, server and kiosk logs) stays after a failed run, or with MONEY_KEEP=1. */
let keepFolder = process.env.MONEY_KEEP === '1';

/** Mulberry32: a run can be repeated with its seed. */
function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = randomFrom(SEED);
const chance = (p: number) => random() < p;
const between = (min: number, max: number) => Math.round(min + random() * (max - min));
const pick = <T>(weighted: [T, number][]): T => {
  let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of weighted) if ((r -= w) < 0) return value;
  return weighted.at(-1)![0];
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const out = (text: string) => process.stdout.write(`${text}\n`);

const dir = mkdtempSync(join(tmpdir(), 'retail-bench-money-'));
// The kiosk code logs every retry; the run's own output is the counts.
const kioskLog = openSync(join(dir, 'kiosk.log'), 'a');
for (const level of ['info', 'warn', 'error'] as const) console[level] = (...args: unknown[]) => void writeSync(kioskLog, `${args.map(String).join(' ')}\n`);

const port = await freePort();
const base = `http://127.0.0.1:${port}/api/v1`;
const db = openDatabase(join(dir, DATABASE_FILE));
const services = createServices({ db, clock: systemClock });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller: Caller = { orgId: org.id, keyKind: 'write', features: [] };
const store = services.retailStores.create(caller, { name: 'Filiale' });
const product = services.products.create(caller, { name: 'Gipfeli', price: UNIT, taxCategory: '2.6' });
db.close();

const { command, args } = buildAndGetStartCommand();
const simulatorProcess = spawn(process.execPath, [join(PROJECT_ROOT, 'dist', 'main', 'terminal-sim', 'start.js'), '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const ready = await new Promise<ReadyLine>((resolve) => createInterface({ input: simulatorProcess.stdout! }).once('line', (line) => resolve(JSON.parse(line) as ReadyLine)));

const serverLog = openSync(join(dir, 'server.log'), 'a');
const serverEnv = { ...process.env, PORT: String(port), DATA_DIR: dir, HOST: '127.0.0.1', LOG_LEVEL: 'warn', TERMINAL_ALLOW_ADDRESSES: 'loopback' };
const startServer = (): ChildProcess => spawn(command, args, { cwd: PROJECT_ROOT, env: serverEnv, stdio: ['ignore', serverLog, serverLog] });
let server = startServer();
const serverUp = () => waitFor(async () => ((await fetch(`${base}/health`).catch(() => undefined))?.ok ? true : undefined), 60_000, 'the server answering');
await serverUp();

const counts = { kills: 0, drops: 0, kioskErrors: 0, refundsAsked: 0, refundsRefused: 0, refundsUnanswered: 0, concurrentRefunds: 0 };

/** SIGKILL, then a start on the same data folder and port after a pause. */
async function killServer(): Promise<void> {
  const victim = server;
  counts.kills += 1;
  victim.kill('SIGKILL');
  if (victim.exitCode === null && victim.signalCode === null) await once(victim, 'exit');
  await sleep(between(0, 800));
  server = startServer();
}

const staff = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> => {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, json: await res.json() };
};
const simulator = simulatorCall(ready);

if ((await staff('POST', '/terminals', { ...ready, store, name: 'Terminal', protocol: 'nexo-local' })).status !== 201) throw new Error('the terminal could not be registered');
const kioskKey = (await staff('POST', '/keys', { kind: 'kiosk', store, name: 'Kiosk' })).json.key as string;

/** Which answers the kiosk loses, by step. */
const proxy = await startFaultProxy({ host: '127.0.0.1', port }, (method, path) => {
  const url = new URL(path, 'http://kiosk');
  if (method === 'POST' && url.pathname.endsWith('/payments')) return chance(0.25) ? 'payment start (202)' : undefined;
  if (method === 'GET' && /\/payments\/[^/]+$/.test(url.pathname)) return chance(0.08) ? 'payment status' : undefined;
  if (method === 'GET' && url.pathname.endsWith('/payments')) return chance(0.15) ? 'sale lookup' : undefined;
  if (method === 'POST' && url.pathname.endsWith('/orders')) return chance(0.2) ? 'order recorded' : undefined;
  if (method === 'POST' && url.pathname.endsWith('/cancel')) return chance(0.3) ? 'cancel' : undefined;
  return undefined;
});
const kiosk = createApiClient({ apiBaseUrl: `${proxy.url}/api/v1`, key: kioskKey });

type Outcome = 'approve' | 'late approve' | 'decline' | 'cancel' | 'busy' | 'lose-answer' | 'ignore';
const ordered: Record<Outcome, number> = { approve: 0, 'late approve': 0, decline: 0, cancel: 0, busy: 0, 'lose-answer': 0, ignore: 0 };
const references: string[] = [];

/** One sale as the kiosk makes it, with the faults of this sale scheduled around it. */
async function sale(n: number): Promise<void> {
  const reference = `money-${SEED}-${n}`;
  references.push(reference);
  const quantity = between(1, 30);
  const outcome = pick<Outcome>([['approve', 45], ['late approve', 10], ['decline', 10], ['cancel', 8], ['busy', 7], ['lose-answer', 12], ['ignore', 8]]);
  ordered[outcome] += 1;
  const order = outcome === 'late approve' ? { outcome: 'approve', delayMs: between(500, 3000) } : outcome === 'lose-answer' ? { outcome, delayMs: between(0, 2000) } : { outcome, delayMs: between(0, 300) };
  await simulator('POST', '/simulator/next', { ...order, brand: pick([['mc', 2], ['visa', 2], ['maestro', 1]]) });
  const faults: Promise<void>[] = [];
  if (chance(0.3)) faults.push(sleep(between(0, 2500)).then(killServer));
  if (chance(0.25)) {
    faults.push(
      sleep(between(0, 2500)).then(() => {
        counts.drops += 1;
        proxy.dropFor(between(500, 3000));
      }),
    );
  }
  const payment = new CardPayment(kiosk, { store, amount: UNIT * quantity, reference }, () => {});
  if (chance(0.05)) void sleep(between(100, 1500)).then(() => payment.cancel());
  let settled: TerminalPayment | undefined;
  try {
    settled = await payment.run(true);
    if (settled?.state === 'approved') {
      await sendSale(kiosk, { store, orderId: reference, payment: settled.id, paymentMethod: 'card', products: [{ productId: product, quantity }] }, () => {});
    }
  } catch (err) {
    counts.kioskErrors += 1;
    console.error(`sale ${reference}: the kiosk gave up`, err);
  }
  await Promise.all(faults);
}

/** Staff refund part or all of some recorded sales: one at a time, or (with refund faults) two at once. */
async function refunds(approved: { id: string; amount: number }[]): Promise<void> {
  for (const payment of approved) {
    if (!chance(0.15)) continue;
    const amount = chance(0.5) ? payment.amount : between(1, payment.amount - 1);
    const asks = REFUND_FAULTS && chance(0.4) ? [Math.min(amount, Math.floor(payment.amount / 2)), Math.min(amount, Math.floor(payment.amount / 2))] : [amount];
    if (asks.length > 1) counts.concurrentRefunds += 1;
    if (REFUND_FAULTS && chance(0.3)) await simulator('POST', '/simulator/next', { outcome: 'lose-answer' });
    const answers = await Promise.all(asks.filter((a) => a > 0).map((a) => staff('POST', `/payments/${payment.id}/refund`, { amount: a }).catch(() => undefined)));
    for (const answer of answers) {
      counts.refundsAsked += 1;
      if (!answer) counts.refundsUnanswered += 1;
      else if (answer.status >= 400) counts.refundsRefused += 1;
    }
  }
}

const isOpen = (state: string) => state === 'pending' || state === 'unknown' || state === 'refunding';
const paymentsOf = async (reference: string) => (await staff('GET', `/payments?reference=${encodeURIComponent(reference)}`)).json.data as (TerminalPayment & { refunded: number; reference: string })[];

try {
  out(`chaos run: ${SALES} card sales through the kiosk's payment code, seed ${SEED}${REFUND_FAULTS ? ', with refund faults' : ''}`);
  const started = Date.now();
  for (let n = 0; n < SALES; n += 1) await sale(n);
  await serverUp();

  // Every payment settled: the server asks the terminal about the open ones.
  await waitFor(async () => {
    for (const reference of references) if ((await paymentsOf(reference)).some((p) => isOpen(p.state))) return undefined;
    return true;
  }, SETTLE_MS, 'every payment settled').catch(() => undefined);

  const recorded: { id: string; amount: number }[] = [];
  for (const reference of references) for (const p of await paymentsOf(reference)) if (p.state === 'approved' && p.order) recorded.push({ id: p.id, amount: p.amount });
  await refunds(recorded);
  await waitFor(async () => {
    for (const reference of references) if ((await paymentsOf(reference)).some((p) => isOpen(p.state))) return undefined;
    return true;
  }, SETTLE_MS, 'every refund settled').catch(() => undefined);

  const transactions = (await simulator('GET', '/simulator/transactions')) as SimulatedTransaction[];
  const orders = (await staff('GET', '/orders?start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z&limit=5000')).json.data as { orderId: string; price: number; paymentMethod: string }[];
  const ourReferences = new Set(references);
  const tally = { simApproved: 0, simApprovedAmount: 0, simRefunded: 0, serverApproved: 0, serverApprovedAmount: 0, serverRefunded: 0, orders: 0, orderAmount: 0 };
  const problems = { doubleCharges: 0, lostApprovals: 0, unrecordedSales: 0, refundDifferences: 0, unresolved: 0, ordersWithoutCharge: 0 };
  const heldStates = new Set(['approved', 'refunding', 'refunded', 'partially-refunded']);
  for (const reference of references) {
    const atTerminal = transactions.filter((t) => t.reference === reference && t.state === 'approved');
    const atServer = await paymentsOf(reference);
    const held = atServer.filter((p) => heldStates.has(p.state));
    const orderOf = orders.filter((o) => o.orderId === reference);
    tally.simApproved += atTerminal.length;
    tally.simApprovedAmount += atTerminal.reduce((sum, t) => sum + t.amount, 0);
    tally.simRefunded += atTerminal.reduce((sum, t) => sum + t.refunded, 0);
    tally.serverApproved += held.length;
    tally.serverApprovedAmount += held.reduce((sum, p) => sum + p.amount, 0);
    tally.serverRefunded += held.reduce((sum, p) => sum + p.refunded, 0);
    tally.orders += orderOf.length;
    tally.orderAmount += orderOf.reduce((sum, o) => sum + o.price, 0);
    if (atTerminal.length > 1) problems.doubleCharges += 1;
    if (atTerminal.length > held.length) problems.lostApprovals += atTerminal.length - held.length;
    if (atTerminal.length > 0 && orderOf.length === 0) problems.unrecordedSales += 1;
    if (atTerminal.length === 0 && orderOf.length > 0) problems.ordersWithoutCharge += 1;
    if (atServer.some((p) => isOpen(p.state))) problems.unresolved += 1;
    // Only where the terminal reports what it gave back.
    const terminalRefunded = atTerminal.reduce((sum, t) => sum + (typeof t.refunded === 'number' ? t.refunded : 0), 0);
    if (atTerminal.every((t) => typeof t.refunded === 'number') && terminalRefunded !== held.reduce((sum, p) => sum + p.refunded, 0)) problems.refundDifferences += 1;
  }
  const strays = transactions.filter((t) => t.state === 'approved' && !ourReferences.has(t.reference)).length;
  const differences = Number(tally.simApprovedAmount !== tally.serverApprovedAmount) + Number(tally.serverApproved !== tally.orders) + Number(tally.simRefunded !== tally.serverRefunded) + Number(strays > 0);

  out(`${SALES} sales in ${Math.round((Date.now() - started) / 1000)} s; ordered at the simulator: ${Object.entries(ordered).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out(`faults: ${counts.kills} SIGKILLs of the server, ${counts.drops} network drops of the kiosk (${proxy.counts.dropped} requests refused), lost answers: ${Object.entries(proxy.counts.lostAnswers).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  out(`refunds: ${counts.refundsAsked} asked (${counts.concurrentRefunds} pairs at once), ${counts.refundsRefused} refused, ${counts.refundsUnanswered} unanswered`);
  out(`terminal: ${tally.simApproved} approvals, CHF ${(tally.simApprovedAmount / 100).toFixed(2)}, refunded CHF ${(tally.simRefunded / 100).toFixed(2)}`);
  out(`server:   ${tally.serverApproved} approved payments, CHF ${(tally.serverApprovedAmount / 100).toFixed(2)}, refunded CHF ${(tally.serverRefunded / 100).toFixed(2)}; ${tally.orders} orders, CHF ${(tally.orderAmount / 100).toFixed(2)}`);
  out(`double charges ${problems.doubleCharges}, lost approvals ${problems.lostApprovals}, approved sales not recorded ${problems.unrecordedSales}, orders without a charge ${problems.ordersWithoutCharge}, refund differences ${problems.refundDifferences}, unresolved ${problems.unresolved}, total differences ${differences}, kiosk errors ${counts.kioskErrors}`);
  const failed = Object.values(problems).some((n) => n > 0) || differences > 0;
  out(failed ? `FAILED (logs kept in ${dir})` : 'OK: every approval at the terminal is one approved payment and one order, every refund recorded as given');
  process.exitCode = failed ? 1 : 0;
  keepFolder ||= failed;
} finally {
  await proxy.close();
  server.kill('SIGTERM');
  if (server.exitCode === null && server.signalCode === null) await once(server, 'exit');
  simulatorProcess.kill('SIGTERM');
  closeSync(serverLog);
  closeSync(kioskLog);
  if (!keepFolder) rmSync(dir, { recursive: true, force: true });
}
