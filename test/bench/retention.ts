/**
 * `npm run bench:retention`: the event loop during a purge of 200,000 rows.
 *
 * Fills a fresh database with `BENCH_PURGE_ROWS` (200,000) pushed outbox
 * entries of a month and a half ago and as many kept answers past their time,
 * then runs the purge while `monitorEventLoopDelay` samples the loop. Reports
 * the purge's time and the loop's largest stall, against a baseline measured in
 * the same run: the same rows deleted by one statement each, as the answers
 * were purged before (every 100th keyed POST, on the event loop). Target: no
 * stall over 20 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createDataRetention } from '../../main/retention/data-retention.js';
import { DATABASE_FILE, openDatabase, type Db } from '../../main/storage/database.js';
import { createGroupCommit } from '../../main/storage/group-commit.js';

const ROWS = Number(process.env.BENCH_PURGE_ROWS ?? 200_000);
const now = new Date('2026-11-25T00:00:00.000Z');
const longAgo = '2026-10-01T00:00:00.000Z';

function filled(): { db: Db; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'retail-bench-purge-'));
  const db = openDatabase(join(dir, DATABASE_FILE));
  db.prepare("INSERT INTO organizations (id, name, created_at) VALUES ('o', 'Org', ?)").run(longAgo);
  const entry = db.prepare(
    "INSERT INTO outbox (org_id, resource, resource_id, operation, body, created_at, state, done_at) VALUES ('o', 'order', ?, 'create', ?, ?, 'pushed', ?)",
  );
  const answer = db.prepare(
    "INSERT INTO idempotency_keys (org_id, key, fingerprint, status, body, created_at, expires_at) VALUES ('o', ?, 'f', 200, ?, ?, ?)",
  );
  const body = JSON.stringify({ store: 's', products: [{ productId: 'p', quantity: 1, title: 'Brot', price: 450, taxRate: 2.6 }] });
  db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) {
      entry.run(`order-${i}`, body, longAgo, longAgo);
      answer.run(`key-${i}`, JSON.stringify({ id: `order-${i}` }), longAgo, longAgo);
    }
  })();
  // A settled database, as a server's would be: the fill's WAL folded in before the purge starts.
  db.pragma('wal_checkpoint(TRUNCATE)');
  return { db, dir };
}

async function measure(name: string, purge: (db: Db) => Promise<unknown>) {
  const { db, dir } = filled();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  const result = await purge(db);
  const ms = performance.now() - started;
  histogram.disable();
  const left = db.prepare('SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM idempotency_keys)').pluck().get();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { name, ms, maxStallMs: histogram.max / 1e6, p99StallMs: histogram.percentile(99) / 1e6, left, result };
}

const batched = await measure('batched purge (500 rows a transaction)', async (db) => {
  // As the server runs it: batches commit through its group commit, whose checkpoints keep their fsyncs off the event loop.
  const groups = createGroupCommit(db);
  try {
    return await createDataRetention({ db, clock: { now: () => now }, groups }).purge();
  } finally {
    groups.flush();
  }
});
const whole = await measure('one statement per table (before)', async (db) => {
  // Timers must get a chance to observe the stall.
  await new Promise((resolve) => setTimeout(resolve, 5));
  db.prepare('DELETE FROM outbox WHERE done_at < ?').run(now.toISOString());
  db.prepare('DELETE FROM idempotency_keys WHERE expires_at < ?').run(now.toISOString());
  await new Promise((resolve) => setTimeout(resolve, 5));
});

console.log(`| purge of ${ROWS} outbox entries + ${ROWS} kept answers | total ms | largest event-loop stall ms | p99 stall ms | rows left |`);
console.log('|---|---|---|---|---|');
for (const r of [batched, whole]) {
  console.log(`| ${r.name} | ${r.ms.toFixed(0)} | ${r.maxStallMs.toFixed(1)} | ${r.p99StallMs.toFixed(1)} | ${r.left} |`);
}
console.log(`largest stall: ${(batched.maxStallMs / whole.maxStallMs).toFixed(3)} x the one-statement purge; target <= 20 ms: ${batched.maxStallMs <= 20 ? 'met' : 'MISSED'}`);
