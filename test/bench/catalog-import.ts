/**
 * `npm run bench:catalog`: imports a catalog file of 20,000 rows into a
 * running server (the check with `dryRun=true`, then the import), while a
 * scanner looks up a barcode over and over, and reports the time of each
 * step, the longest a lookup waited during each, and how long after the
 * import started the kiosk's search finds the new products. Then it imports
 * an Excel workbook of 20,000 other products the same way and reports its
 * time, the server's peak memory during it and the lookups' longest wait.
 * The lookups' wait on the idle server, measured first in the same run, is
 * the baseline.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import writeXlsxFile, { type Cell } from 'write-excel-file/node';
import { WORKBOOK_TYPE } from '../../shared/api/catalog.js';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { PROJECT_ROOT } from '../../main/version.js';
import { random } from './catalog.js';
import { timeFileReports } from './catalog-page.js';
import { buildAndGetStartCommand, cpuMs, spawnProcess, waitFor } from './server-process.js';

const ROWS = Number(process.env.ROWS ?? 20_000);
const CATEGORIES = ['Milchprodukte', 'Käse', 'Brot & Backwaren', 'Getränke', 'Früchte', 'Gemüse', 'Fleisch', 'Süsswaren', 'Konserven', 'Haushalt'];
const WORDS = ['Vollmilch', 'Bergkäse', 'Müesli', 'Brötchen', 'Schokolade', 'Apfelsaft', 'Rüebli', 'Zopf', 'Kaffee', 'Joghurt', 'Fromage', 'Pâtes', 'Crème', 'Formaggio', 'Pasta'];
const ADJECTIVES = ['Bio', 'Classic', 'Extra', 'Léger', 'Dolce', 'Fresh', 'Alpin', 'Nature', 'Premium', 'Süss'];
const log = (line: string) => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** An EAN-13 with its check digit. */
function ean13(body12: string): string {
  const sum = [...body12].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return body12 + String((10 - (sum % 10)) % 10);
}

/** A shop's price list as Excel in Switzerland writes it: `;`, prices "1,95". */
function catalogFile(rows: number): string {
  const rnd = random(31);
  const lines = ['externalId;barcode;name;price;taxCategory;category;depositProduct;description'];
  for (let i = 0; i < rows; i += 1) {
    const name = `${rnd.pick(ADJECTIVES)} ${rnd.pick(WORDS)} ${i}`;
    const price = `${1 + rnd.int(40)},${String(rnd.int(20) * 5).padStart(2, '0')}`;
    lines.push(`ART-${i};${ean13(`76${String(10_000_000_000 + i).slice(1)}`)};${name};${price};2.6;${rnd.pick(CATEGORIES)};;Aus der Region`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** The same kind of price list as a workbook, typed the way a shop types one: barcodes as text, prices as numbers. */
async function catalogWorkbook(rows: number): Promise<Buffer> {
  const rnd = random(37);
  const header: Cell[] = ['Artikelnummer', 'Strichcode', 'Bezeichnung', 'Preis', 'MWST', 'Kategorie', 'Beschreibung'].map((value) => ({ value }));
  const data: Cell[][] = [header];
  for (let i = 0; i < rows; i += 1) {
    data.push([
      { value: `WB-${i}` },
      { value: ean13(`77${String(10_000_000_000 + i).slice(1)}`), type: String, format: '@' },
      { value: `${rnd.pick(ADJECTIVES)} ${rnd.pick(WORDS)} W${i}` },
      { value: 1 + rnd.int(40) + rnd.int(20) * 0.05, type: Number, format: '0.00' },
      { value: 2.6, type: Number },
      { value: rnd.pick(CATEGORIES) },
      { value: 'Aus der Region' },
    ]);
  }
  return writeXlsxFile(data).toBuffer();
}

/** The server's resident memory now and at its peak since the peak was last reset, in MB (Linux). */
function memoryMb(pid: number): { now: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { now: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Starts the peak of the server's resident memory afresh; false where the system does not allow it. */
function resetPeakMemory(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** Looks up one barcode again and again until stopped, noting how long each answer took. */
function scanner(origin: string, key: string, code: string) {
  let running = true;
  let phase = 'idle';
  const waits = new Map<string, number[]>();
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await fetch(`${origin}/api/v1/products?barcode=${code}`, { headers: { authorization: `Bearer ${key}` } });
      await res.arrayBuffer();
      const list = waits.get(phase) ?? [];
      list.push(performance.now() - started);
      waits.set(phase, list);
    }
  })();
  return {
    enter(name: string) {
      phase = name;
    },
    async stop() {
      running = false;
      await loop;
      return waits;
    },
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'catalog-bench-'));
const db = openDatabase(join(dataDir, DATABASE_FILE));
const services = createServices({ db, clock: systemClock });
const org = services.organizations.create({ name: 'Bench', features: [] });
const caller = { orgId: org.id, keyKind: 'write' as const, features: [] };
for (const name of CATEGORIES) services.categories.create(caller, { name });
services.products.create(caller, { name: 'Scanner probe', price: 100, taxCategory: '2.6', barcode: '7600000000001' });
db.close();

log('Building…');
const { command, args } = buildAndGetStartCommand();
const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const server = spawnProcess(command, args, { PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: 'silent' }, PROJECT_ROOT);
try {
  await waitFor(async () => {
    const res = await fetch(`${origin}/api/v1/health`);
    return res.status === 200 && ((await res.json()) as { search: string }).search === 'ready' ? true : undefined;
  }, 60_000, 'server ready');

  const file = catalogFile(ROWS);
  // Built before the scanner starts: writing it holds this process for a while, and the scanner's kept-alive connection would time out meanwhile.
  const workbook = await catalogWorkbook(ROWS);
  const bytes = Buffer.byteLength(file);
  const send = (query: string) =>
    fetch(`${origin}/api/v1/catalog/import${query}`, { method: 'POST', headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': 'text/csv' }, body: file });
  const scan = scanner(origin, org.readKey, '7600000000001');
  await new Promise((resolve) => setTimeout(resolve, 2000));

  const pid = server.child.pid!;
  scan.enter('check');
  let cpuBefore = cpuMs(pid);
  let started = performance.now();
  const checked = (await (await send('?dryRun=true')).json()) as { data: { created: number; errors: unknown[] } };
  const checkMs = performance.now() - started;
  const checkCpu = cpuMs(pid) - cpuBefore;
  if (checked.data.created !== ROWS || checked.data.errors.length > 0) throw new Error(`the check found ${JSON.stringify(checked.data).slice(0, 300)}`);

  scan.enter('import');
  cpuBefore = cpuMs(pid);
  started = performance.now();
  const imported = await send('');
  const importMs = performance.now() - started;
  const importCpu = cpuMs(pid) - cpuBefore;
  if (imported.status !== 200) throw new Error(`the import answered ${imported.status}: ${(await imported.text()).slice(0, 300)}`);
  scan.enter('after');
  const lastName = file.trimEnd().split('\r\n').at(-1)!.split(';')[2]!;
  await waitFor(async () => {
    const res = await fetch(`${origin}/api/v1/products?q=${encodeURIComponent(lastName)}&limit=1`, { headers: { authorization: `Bearer ${org.readKey}` } });
    const body = (await res.json()) as { data?: { name: string }[] };
    return body.data?.[0]?.name === lastName ? true : undefined;
  }, 60_000, 'search finds the last product');
  const foundMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));

  const peakReset = resetPeakMemory(pid);
  const memoryBefore = memoryMb(pid);
  scan.enter('workbook');
  cpuBefore = cpuMs(pid);
  started = performance.now();
  const fromWorkbook = await fetch(`${origin}/api/v1/catalog/import`, { method: 'POST', headers: { authorization: `Bearer ${org.writeKey}`, 'content-type': WORKBOOK_TYPE }, body: workbook });
  const workbookMs = performance.now() - started;
  const workbookCpu = cpuMs(pid) - cpuBefore;
  const workbookMemory = memoryMb(pid);
  const workbookAnswer = (await fromWorkbook.json()) as { data?: { created: number } };
  if (fromWorkbook.status !== 200 || workbookAnswer.data?.created !== ROWS) throw new Error(`the workbook import answered ${fromWorkbook.status}: ${JSON.stringify(workbookAnswer).slice(0, 300)}`);
  scan.enter('after');
  await new Promise((resolve) => setTimeout(resolve, 500));
  const waits = await scan.stop();

  // Every line with a problem (a price that is not one), and every line with a warning (an EAN-8 whose leading zero was dropped).
  const gs1 = (body: string) => body + String((10 - ([...body].reverse().reduce((sum, d, i) => sum + Number(d) * (i % 2 === 0 ? 3 : 1), 0) % 10)) % 10);
  const [errorsReport, warningsReport] = await timeFileReports(origin, org.writeKey, [
    { name: 'errors.csv', text: ['externalId;name;price;taxCategory', ...Array.from({ length: ROWS }, (_, i) => `E-${i};Artikel ${i};gratis;2.6`)].join('\r\n') },
    { name: 'warnings.csv', text: ['barcode;name;price;taxCategory', ...Array.from({ length: ROWS }, (_, i) => `${gs1(String(300_000 + i))};Artikel ${i};1,95;2.6`)].join('\r\n') },
  ]);

  const stats = (phase: string) => {
    const list = [...(waits.get(phase) ?? [])].sort((a, b) => a - b);
    const at = (q: number) => list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? NaN;
    return `${String(list.length).padStart(5)} lookups, median ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, longest ${(list.at(-1) ?? NaN).toFixed(1)} ms`;
  };
  log(`\nMachine: ${cpus().length} cores, Node ${process.version}, load average ${loadavg()[0]!.toFixed(1)} (other processes compete for the cores: compare with the idle lookups of the same run)`);
  log(`Catalog file: ${ROWS} rows, ${(bytes / 1_048_576).toFixed(1)} MB, ';'-separated, prices "1,95"`);
  log(`check (dryRun=true):      ${(checkMs / 1000).toFixed(2)} s (server CPU ${(checkCpu / 1000).toFixed(2)} s, lookups included)`);
  log(`import (check + write):   ${(importMs / 1000).toFixed(2)} s, ${(ROWS / (importMs / 1000)).toFixed(0)} rows/s (server CPU ${(importCpu / 1000).toFixed(2)} s, lookups included)`);
  log(`search finds the last new product ${(foundMs / 1000).toFixed(2)} s after the import started (${(foundMs - importMs).toFixed(0)} ms after its answer)`);
  log(
    `workbook import (.xlsx, ${(workbook.length / 1_048_576).toFixed(1)} MB, ${ROWS} rows): ${(workbookMs / 1000).toFixed(2)} s (target 10 s; server CPU ${(workbookCpu / 1000).toFixed(2)} s), ` +
      `server memory ${memoryBefore.now.toFixed(0)} MB before, peak ${workbookMemory.peak.toFixed(0)} MB${peakReset ? ' during it' : ' since start'} (target 300 MB)`,
  );
  log(
    `staff page's report of a check, from its answer to painted: ${ROWS} errors ${errorsReport!.renderMs.toFixed(0)} ms (${errorsReport!.elements} elements), ` +
      `${ROWS} warnings ${warningsReport!.renderMs.toFixed(0)} ms (${warningsReport!.elements} elements) (target 1 s)`,
  );
  log('\nA scanner looking up one barcode meanwhile (one request at a time):');
  for (const phase of ['idle', 'check', 'import', 'workbook', 'after']) log(`  ${phase.padEnd(8)} ${stats(phase)}`);
  const longest = (phase: string) => Math.max(...(waits.get(phase) ?? [NaN]));
  log(`\nWorkbook import: the longest lookup waited ${(longest('workbook') - longest('idle')).toFixed(1)} ms more than on the idle server (target under 50 ms)`);
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
