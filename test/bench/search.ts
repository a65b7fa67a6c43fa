/**
 * Product search benchmark: the search index the server uses against
 * SQLite FTS5 (built into better-sqlite3) as the baseline, on the same
 * 100,000 generated products and the same queries, in one run.
 *
 *   npm run bench:search            (PRODUCTS=20000 npm run bench:search for a quick run)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { foldText, queryTermsOf } from '../../main/rules/search-terms.js';
import type { Caller } from '../../main/services/caller.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { openDatabase, type Db } from '../../main/storage/database.js';
import { generateCatalog } from './generate-catalog.js';
import { generateQueries, QUERY_KINDS, type BenchQuery, type QueryKind } from './search-queries.js';

const PRODUCTS = Number(process.env.PRODUCTS ?? 100_000);
const QUERIES_PER_KIND = 300;
const PAGE = 100;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const rssMb = () => {
  gc();
  return process.memoryUsage().rss / 1e6;
};

interface Timing {
  kind: QueryKind;
  ms: number;
  total: number;
}

/**
 * Times both engines on every query, one right after the other and in turns
 * (which goes first alternates), so that both see the same load on a shared
 * machine and their ratio holds even when the absolute figures do not.
 */
function measurePair(
  queries: readonly BenchQuery[],
  first: (text: string) => number,
  second: (text: string) => number,
): [Timing[], Timing[]] {
  const time = (run: (text: string) => number, { kind, text }: BenchQuery): Timing => {
    const start = performance.now();
    const total = run(text);
    return { kind, ms: performance.now() - start, total };
  };
  const a: Timing[] = [];
  const b: Timing[] = [];
  queries.forEach((query, i) => {
    if (i % 2 === 0) {
      a.push(time(first, query));
      b.push(time(second, query));
    } else {
      b.push(time(second, query));
      a.push(time(first, query));
    }
  });
  return [a, b];
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

/** The FTS5 table of the baseline, with the same fields and weights as the index. */
function buildFts(db: Db): (text: string) => { ids: string[]; total: number } {
  db.exec(`CREATE VIRTUAL TABLE products_fts USING fts5(
    name, description, declarations, codes, content='', tokenize="unicode61 remove_diacritics 2")`);
  db.exec(`INSERT INTO products_fts (rowid, name, description, declarations, codes)
    SELECT rowid, name, coalesce(description, ''), coalesce(declarations, ''),
      barcode || ' ' || coalesce(external_id, '') || ' ' ||
      coalesce((SELECT group_concat(code, ' ') FROM product_alias_codes a WHERE a.product_id = products.id), '')
    FROM products WHERE deleted = 0`);
  const page = db.prepare<[string, number], string>(
    `SELECT p.id FROM products_fts f JOIN products p ON p.rowid = f.rowid
      WHERE products_fts MATCH ? ORDER BY bm25(products_fts, 3.0, 1.0, 0.5, 10.0) LIMIT ?`,
  ).pluck();
  const count = db.prepare<[string], number>('SELECT count(*) FROM products_fts WHERE products_fts MATCH ?').pluck();
  return (text) => {
    // Every word as a word start in the texts, or the whole text as a code: FTS5 has no typo tolerance.
    const words = queryTermsOf(text).map((term) => `"${term}"*`).join(' AND ');
    const match = `({name description declarations}: (${words})) OR (codes: "${foldText(text).replaceAll('"', '')}")`;
    return { ids: page.all(match, PAGE), total: count.get(match) ?? 0 };
  };
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'retail-bench-'));
  const db = openDatabase(join(dir, 'bench.sqlite'), { synchronous: 'NORMAL' });
  try {
    const services = createServices({ db, clock: systemClock });
    const org = services.organizations.create({ name: 'Bench store', features: ['barcode-aliases'] });
    const caller: Caller = { orgId: org.id, keyKind: 'read', features: org.features };

    let start = performance.now();
    const catalog = generateCatalog(PRODUCTS, org.id);
    db.transaction(() => catalog.forEach((product) => services.stores.products.insert(product)))();
    const queries = generateQueries(catalog, QUERIES_PER_KIND, 7);
    const warmUp = generateQueries(catalog, 50, 99).filter((w) => !queries.some((q) => q.text === w.text));
    catalog.length = 0;
    console.log(`${PRODUCTS} products generated and stored in ${(performance.now() - start).toFixed(0)} ms`);

    const rssBefore = rssMb();
    start = performance.now();
    await services.search.build();
    const indexBuild = performance.now() - start;
    const indexRss = rssMb();

    const searchIndex = (text: string) => services.products.list(caller, { q: text, limit: PAGE }).meta.total;

    start = performance.now();
    const fts = buildFts(db);
    const ftsBuild = performance.now() - start;
    const ftsRss = rssMb();
    const searchFts = (text: string) => {
      const { ids, total } = fts(text);
      for (const id of ids) services.stores.products.get(org.id, id);
      return total;
    };
    measurePair(warmUp, searchIndex, searchFts);
    const [index, baseline] = measurePair(queries, searchIndex, searchFts);

    report({ indexBuild, ftsBuild, rssBefore, indexRss, ftsRss, index, baseline });
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function report(r: {
  indexBuild: number;
  ftsBuild: number;
  rssBefore: number;
  indexRss: number;
  ftsRss: number;
  index: Timing[];
  baseline: Timing[];
}) {
  const rows: [string, number, number][] = [
    ['index build (ms)', r.indexBuild, r.ftsBuild],
    ['RSS after build (MB)', r.indexRss, r.ftsRss],
    ['RSS added by the index (MB)', r.indexRss - r.rssBefore, r.ftsRss - r.indexRss],
  ];
  for (const kind of [...QUERY_KINDS, undefined]) {
    const label = kind ?? 'all';
    const ms = (timings: Timing[]) => timings.filter((t) => kind === undefined || t.kind === kind).map((t) => t.ms);
    const hits = (timings: Timing[]) => {
      const of = timings.filter((t) => kind === undefined || t.kind === kind);
      return of.reduce((sum, t) => sum + t.total, 0) / of.length;
    };
    rows.push([`${label}: p50 (ms)`, percentile(ms(r.index), 50), percentile(ms(r.baseline), 50)]);
    rows.push([`${label}: p95 (ms)`, percentile(ms(r.index), 95), percentile(ms(r.baseline), 95)]);
    rows.push([`${label}: mean matches`, hits(r.index), hits(r.baseline)]);
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  const cell = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(2)).padStart(10);
  console.log(`\n${''.padEnd(width)} ${'index'.padStart(10)} ${'FTS5'.padStart(10)} ${'ratio'.padStart(8)}`);
  for (const [label, index, fts] of rows) {
    const ratio = fts > 0 ? (index / fts).toFixed(2) : '-';
    console.log(`${label.padEnd(width)} ${cell(index)} ${cell(fts)} ${ratio.padStart(8)}`);
  }
  console.log(
    `\n${r.index.length} distinct queries per engine, ${PAGE} products per page read from SQLite by both.` +
      '\nRSS of the whole process; FTS5 adds its pages to the SQLite cache. ratio = index / FTS5 (below 1: the index is better).',
  );
}

await main();
