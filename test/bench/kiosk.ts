/**
 * Kiosk screen benchmark in Debian's Chromium against the server as `npm start`
 * runs it, on a generated catalog of 100,000 products:
 *   - first screen painted after the page starts loading (baseline: the status page's first paint);
 *   - scan to cart line painted (baseline: the page's own fetch of the same barcode lookup);
 *   - search as you type, keystroke to results painted (baseline: the page's own fetch of the same search).
 *
 *   npm run bench:kiosk            (PRODUCTS=20000 npm run bench:kiosk for a quick run)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/kiosk.js';
import { FULL_SIZE, generateCatalog, random } from './catalog.js';
import { PAGE_FIRST_SCREEN, PAGE_SCANS, PAGE_TYPING } from './kiosk-page.js';
import { freePort } from '../support/processes.js';
import { buildAndGetStartCommand, spawnProcess, waitFor } from './server-process.js';

/** What the waits below read in the page (the benchmark compiles without DOM types). */
interface PageGlobals {
  document: { documentElement: { dataset: Record<string, string | undefined> } };
  __firstScreen?: number;
}

const PRODUCTS = Number(process.env.PRODUCTS ?? 100_000);
const LOADS = 10;
const SCANS = 200;
const QUERIES = 40;
const log = (line: string) => process.stdout.write(`${line}\n`);

const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-bench-'));
log(`Generating ${PRODUCTS} products…`);
const db = openDatabase(join(dataDir, DATABASE_FILE));
const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Bench', features: [] });
const catalog = generateCatalog(db, org.id, { ...FULL_SIZE, products: PRODUCTS, orders: 0, orderDays: 1 });
db.close();

log('Building…');
const { command, args } = buildAndGetStartCommand();
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'silent' }, PROJECT_ROOT);
await waitFor(async () => {
  const res = await fetch(`${origin}/api/v1/health`);
  return res.status === 200 && ((await res.json()) as { search: string }).search === 'ready' ? true : undefined;
}, 120_000, 'search ready');

async function measure(browser: Browser) {
  const config = { apiBaseUrl: `${origin}/api/v1`, key: org.writeKey, storeId: catalog.storeIds[0]! };
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  await context.addInitScript((c) => {
    (globalThis as unknown as { kioskBridge: unknown }).kioskBridge = { config: c };
  }, config);
  await context.addInitScript(PAGE_FIRST_SCREEN);

  log(`First screen, ${LOADS} loads…`);
  const firstScreen: number[] = [];
  const statusPaint: number[] = [];
  let catalogReadyMs = 0;
  for (let i = 0; i < LOADS; i++) {
    const page = await context.newPage();
    await page.goto(`${origin}/status`);
    statusPaint.push(await page.evaluate<number>('new Promise((r) => { const e = performance.getEntriesByName("first-contentful-paint")[0]; if (e) r(e.startTime); else new PerformanceObserver((l) => r(l.getEntries()[0].startTime)).observe({ type: "paint", buffered: true }); })'));
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).__firstScreen !== undefined);
    firstScreen.push(await page.evaluate<number>('window.__firstScreen'));
    if (i === LOADS - 1) {
      await page.waitForFunction(() => (globalThis as unknown as PageGlobals).document.documentElement.dataset.catalog === 'ready', undefined, { timeout: 120_000 });
      catalogReadyMs = await page.evaluate<number>('performance.now()');
    }
    if (i < LOADS - 1) await page.close();
  }
  const page = context.pages().at(-1)!;

  const rnd = random(11);
  const codes = Array.from({ length: SCANS }, () => rnd.pick(catalog.barcodes));
  log(`${SCANS} scans…`);
  const scans = (await page.evaluate(`(${PAGE_SCANS})(${JSON.stringify(codes)})`)) as { ui: number[]; fetch: number[] };

  const words = Array.from({ length: QUERIES }, () => rnd.pick(catalog.words).toLowerCase());
  log(`${QUERIES} words typed letter by letter…`);
  const typing = (await page.evaluate(`(${PAGE_TYPING})(${JSON.stringify(words)}, ${JSON.stringify(config.storeId)})`)) as { ui: number[]; fetch: number[] };

  return { firstScreen, statusPaint, catalogReadyMs, scans, typing };
}

const browser = await launchChromium();
let results: Awaited<ReturnType<typeof measure>>;
try {
  results = await measure(browser);
} finally {
  await browser.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
const { firstScreen, statusPaint, catalogReadyMs, scans, typing } = results;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (v: number) => `${v.toFixed(1)} ms`;
const rows = [
  { figure: 'first screen painted, p50 / p95', value: `${ms(percentile(firstScreen, 50))} / ${ms(percentile(firstScreen, 95))}`, baseline: ms(percentile(statusPaint, 95)), ratio: `${(percentile(firstScreen, 95) / percentile(statusPaint, 95)).toFixed(1)} x`, target: '< 1000 ms', met: percentile(firstScreen, 95) < 1000 },
  { figure: `scan to line painted (${SCANS}), p50 / p95`, value: `${ms(percentile(scans.ui, 50))} / ${ms(percentile(scans.ui, 95))}`, baseline: ms(percentile(scans.fetch, 95)), ratio: `${(percentile(scans.ui, 95) / percentile(scans.fetch, 95)).toFixed(1)} x`, target: 'p95 < 100 ms', met: percentile(scans.ui, 95) < 100 },
  { figure: `keystroke to results painted (${typing.ui.length}), p50 / p95`, value: `${ms(percentile(typing.ui, 50))} / ${ms(percentile(typing.ui, 95))}`, baseline: ms(percentile(typing.fetch, 95)), ratio: `${(percentile(typing.ui, 95) / percentile(typing.fetch, 95)).toFixed(1)} x`, target: 'p95 < 150 ms', met: percentile(typing.ui, 95) < 150 },
  { figure: 'products shown on screen loaded (background)', value: ms(catalogReadyMs), baseline: '', ratio: '', target: '–', met: true },
];
log(`\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; ${PRODUCTS} products`);
log('Baselines, same run: the status page\'s first paint; the page\'s own fetch of the same lookup or search (p95).\n');
const header = ['figure', 'value', 'baseline p95', 'ratio', 'target', 'met'];
const table = rows.map((r) => [r.figure, r.value, r.baseline, r.ratio, r.target, r.met ? 'yes' : 'NO']);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
log(line(header));
log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const r of table) log(line(r));
mkdirSync(join(PROJECT_ROOT, '.bench-results'), { recursive: true });
writeFileSync(join(PROJECT_ROOT, '.bench-results', `kiosk-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify({ products: PRODUCTS, rows }, null, 2));
