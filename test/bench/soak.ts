import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../main/version.js';
import { freePort } from '../support/processes.js';
import { FULL_SIZE } from './catalog.js';
import { percentile } from './load.js';
import { buildAndGetStartCommand, cpuMs, rssMb, spawnProcess, waitFor } from './server-process.js';
import { soakMix, type SoakKind } from './soak-mix.js';
import { runKind, type KindResult } from './soak-run.js';
import { seedCatalog } from './soak-seed.js';

/**
 * `npm run bench:soak`: minutes of a store's mixed load at once against the
 * real server started as `npm start` starts it, on a catalog of the shop's
 * size; every answer checked. The target: at least 90,000 requests answered
 * in 3 minutes (500 per second) and not one error. `BENCH_SERVER_ROOT` names
 * another checkout whose server is measured instead, so that a before and an
 * after come from the same bench.
 */
const SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180);
const PRODUCTS = Number(process.env.BENCH_SOAK_PRODUCTS ?? 20_000);
const TARGET_PER_SECOND = 90_000 / 180;
const KIOSKS = 2;
const size = { ...FULL_SIZE, products: PRODUCTS, orders: PRODUCTS * 2 };
const serverRoot = process.env.BENCH_SERVER_ROOT ?? PROJECT_ROOT;

const log = (text: string) => process.stdout.write(text + '\n');
/** Figures from a shared machine mean little without how busy it was. */
const uptime = () => execFileSync('uptime', { encoding: 'utf8' }).trim();
const uptimeAtStart = uptime();
log(`Machine: ${uptimeAtStart}`);

const dataDir = mkdtempSync(join(tmpdir(), 'retail-soak-'));
log(`Generating ${size.products} products, ${size.orders} orders, ${size.stores} stores with ${serverRoot}'s storage…`);
const seeded = await seedCatalog(serverRoot, dataDir, size, KIOSKS);

log(`Building ${serverRoot}…`);
const { command, args, shown } = buildAndGetStartCommand(serverRoot);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
log(`Starting: ${shown}…`);
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' }, serverRoot);
const pid = server.child.pid!;
const searchReady = async () => ((await (await fetch(`${url}/api/v1/health`)).json()) as { search?: string }).search === 'ready';
await waitFor(async () => ((await searchReady()) ? true : undefined), 120_000, 'search ready');

const mix = soakMix(seeded, Date.now().toString(36));
/** One request of each kind before the clock starts, so that a wrong key or body stops the bench at once rather than after minutes. */
async function probe(kind: SoakKind) {
  const next = kind.next();
  const res = await fetch(url + next.path, {
    method: kind.method,
    headers: { ...(next.key === undefined ? {} : { authorization: `Bearer ${next.key}` }), ...(next.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: next.body === undefined ? undefined : JSON.stringify(next.body),
  });
  if (res.status !== kind.expected) throw new Error(`${kind.name}: ${kind.method} ${next.path} answered ${res.status} ${await res.text()}`);
}
for (const kind of mix) await probe(kind);

log(`Soak: ${SECONDS} s, ${mix.reduce((n, k) => n + k.connections, 0)} connections…`);
const rssAtStart = rssMb(pid);
const cpuAtStart = cpuMs(pid);
const benchCpuAtStart = process.cpuUsage();
const samples: { second: number; rssMb: number; load1: number }[] = [];
const started = performance.now();
const sampler = setInterval(() => samples.push({ second: Math.round((performance.now() - started) / 1000), rssMb: rssMb(pid), load1: loadavg()[0]! }), 10_000);
const allLatencies: number[] = [];
const kinds = await Promise.all(mix.map((kind) => runKind(url, kind, SECONDS, allLatencies)));
allLatencies.sort((a, b) => a - b);
clearInterval(sampler);
const cpuSeconds = (cpuMs(pid) - cpuAtStart) / 1000;
const benchCpu = process.cpuUsage(benchCpuAtStart);
/** The load generator shares the machine's cores with the server: what it takes is not the server's to use. */
const benchCores = (benchCpu.user + benchCpu.system) / 1e6 / SECONDS;
const rssAtEnd = rssMb(pid);
const uptimeAtEnd = uptime();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const sum = (pick: (k: KindResult) => number) => kinds.reduce((n, k) => n + pick(k), 0);
const answered = sum((k) => k.answered);
const errors = sum((k) => k.unexpected + k.unanswered);
const total = {
  answered,
  rps: answered / SECONDS,
  p50: percentile(allLatencies, 50),
  p99: percentile(allLatencies, 99),
  non2xx: sum((k) => k.non2xx),
  errors,
  cpuUsPerRequest: (cpuSeconds * 1e6) / answered,
  serverCores: cpuSeconds / SECONDS,
  benchCores,
};
const targetRequests = TARGET_PER_SECOND * SECONDS;
const met = answered >= targetRequests && errors === 0;

const rows = [
  ...kinds.map((k) => [
    k.name,
    k.rate === undefined ? String(k.connections) : `${k.connections} @ ${k.rate}/s`,
    String(k.answered),
    k.rps.toFixed(0),
    `${k.p50.toFixed(1)} / ${k.p99.toFixed(1)}`,
    String(k.non2xx),
    String(k.unexpected + k.unanswered),
  ]),
  ['total', String(mix.reduce((n, k) => n + k.connections, 0)), String(answered), total.rps.toFixed(0), `${total.p50.toFixed(1)} / ${total.p99.toFixed(1)}`, String(total.non2xx), String(errors)],
];
const header = ['kind', 'connections', 'requests', 'req/s', 'p50 / p99 ms', 'non-2xx', 'errors'];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
log(`\nMachine: ${machine}`);
log(`Server measured: ${serverRoot}`);
log(`Catalog: ${size.products} products, ${size.orders} orders, ${size.stores} stores; ${SECONDS} s`);
log(`uptime at start: ${uptimeAtStart}`);
log(`uptime at end:   ${uptimeAtEnd}`);
log(`Highest 1-minute load average during the soak: ${Math.max(...samples.map((s) => s.load1), loadavg()[0]!).toFixed(2)}\n`);
log(line(header));
log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of rows) log(line(r));
log(`\nServer CPU: ${total.cpuUsPerRequest.toFixed(0)} µs per request (${total.serverCores.toFixed(2)} cores on average; the load generator ${benchCores.toFixed(2)} cores)`);
log(`Server RSS: ${rssAtStart.toFixed(0)} MB at start, ${rssAtEnd.toFixed(0)} MB at end, ${Math.max(rssAtEnd, ...samples.map((s) => s.rssMb)).toFixed(0)} MB at most`);
for (const k of kinds) for (const [reason, n] of Object.entries(k.reasons)) log(`  ${k.name}: ${n} × ${reason}`);
log(
  `\nTarget: >= ${targetRequests.toFixed(0)} requests in ${SECONDS} s and 0 errors: ${answered} requests, ${errors} errors: ${met ? 'met' : 'NOT met'}`,
);

const resultsDir = join(PROJECT_ROOT, '.bench-results');
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify(
    { machine, serverRoot, size, seconds: SECONDS, uptime: { atStart: uptimeAtStart, atEnd: uptimeAtEnd }, samples, rss: { atStart: rssAtStart, atEnd: rssAtEnd }, cpuSeconds, total, kinds, target: { requests: targetRequests, errors: 0, met } },
    null,
    2,
  ),
);
log(`\nResults written to ${file}`);
