import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { CHECKPOINT_INTERVAL_MS } from '../main/storage/wal-checkpoints.js';
import { PROJECT_ROOT } from '../main/version.js';
import { compiled } from './support/compiled-product.js';
import { freePort } from './support/processes.js';
import { makeDataDir } from './support/server.js';

const SALES = 12;
const dataDir = makeDataDir();
afterAll(() => { if (!process.env.KEEP) rmSync(dataDir, { recursive: true, force: true }); });

/** One system call of the server's trace, in the order the kernel finished it. */
interface Call {
  tid: number;
  name: string;
  line: string;
}

/**
 * Reads `strace -f -yy` output: each call where it finished, a call another
 * thread interrupted (`<unfinished ...>`) at its `<... name resumed>` line,
 * with the arguments of its first line.
 */
function finishedCalls(trace: string): Call[] {
  const started = new Map<string, string>();
  const calls: Call[] = [];
  for (const line of trace.split('\n')) {
    const match = /^(\d+)\s+(?:<\.\.\. (\w+) resumed>|(\w+)\()/.exec(line);
    if (!match) continue;
    const tid = Number(match[1]);
    if (match[2]) {
      calls.push({ tid, name: match[2], line: started.get(`${tid} ${match[2]}`) ?? line });
    } else if (line.includes('<unfinished ...>')) {
      started.set(`${tid} ${match[3]}`, line);
    } else {
      calls.push({ tid, name: match[3]!, line });
    }
  }
  return calls;
}

/** The process strace started (Linux lists a task's children in /proc). */
const server = (stracePid: number) => Number(readFileSync(`/proc/${stracePid}/task/${stracePid}/children`, 'utf8').trim().split(' ')[0]);

// strace and /proc: Linux, where the product's tests run (npm test installs strace there).
describe.runIf(process.platform === 'linux')('a write answered under group commit', () => {
  it("is answered only after its WAL is flushed to disk, and the flushes (the WAL's and the checkpoints') run off the event loop's thread", async () => {
    const setup = openDatabase(join(dataDir, DATABASE_FILE));
    const { writeKey } = createServices({ db: setup, clock: systemClock }).organizations.create({ name: 'Flush' });
    setup.close();
    const port = await freePort();
    const traceFile = join(dataDir, 'trace.txt');
    const child = spawn('strace', ['-f', '-qq', '-yy', '-e', 'trace=pwrite64,fdatasync,fsync,writev,write', '-o', traceFile, process.execPath, compiled('main/start.js')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent' },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const url = `http://127.0.0.1:${port}/api/v1`;
    const send = (path: string, body: unknown, key?: string) =>
      fetch(`${url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json', ...(key ? { 'idempotency-key': key } : {}) },
        body: JSON.stringify(body),
      });
    try {
      const deadline = Date.now() + 60_000;
      while (!(await fetch(`${url}/health`).then((r) => r.ok, () => false))) {
        if (child.exitCode !== null) throw new Error(`strace or the server exited with ${child.exitCode}`);
        if (Date.now() > deadline) throw new Error('the traced server did not answer within 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      const store = ((await (await send('/stores', { name: 'Filiale' })).json()) as { id: string }).id;
      // One at a time: each answer's own group is the last thing written to the WAL before it.
      for (let n = 0; n < SALES; n += 1) {
        const res = await send('/orders', { store, products: [{ productId: `p-${n}`, quantity: 1, title: 'Brot', price: 350, taxRate: 0.026, deposit: 0 }] }, `flush-${n}`);
        expect(res.status).toBe(200);
        // Pauses longer than the checkpoint interval: the WAL is copied into the database file and restarts between sales.
        if (n % 3 === 2) await new Promise((r) => setTimeout(r, CHECKPOINT_INTERVAL_MS * 3));
      }
    } finally {
      // To the server itself: strace, told to stop, would only let go of it.
      process.kill(server(child.pid!), 'SIGTERM');
      await exited;
    }

    const calls = finishedCalls(readFileSync(traceFile, 'utf8'));
    const wal = (call: Call) => call.line.includes(`${DATABASE_FILE}-wal>`);
    const mainThread = Number(/^(\d+) /.exec(readFileSync(traceFile, 'utf8'))?.[1]);
    let unflushedWal = false;
    let flushedBy = 0;
    /** Per 200 answer: whether WAL frames were still only in the page cache, and which thread flushed the last ones. */
    const answered: { unflushed: boolean; flushedBy: number }[] = [];
    for (const call of calls) {
      if (call.name === 'pwrite64' && wal(call)) unflushedWal = true;
      if ((call.name === 'fdatasync' || call.name === 'fsync') && wal(call)) {
        unflushedWal = false;
        flushedBy = call.tid;
      }
      if ((call.name === 'writev' || call.name === 'write') && /<TCP(v6)?:\[.*"HTTP\/1\.1 200/.test(call.line)) answered.push({ unflushed: unflushedWal, flushedBy });
    }
    const sales = answered.slice(-SALES);
    expect(answered.length).toBeGreaterThanOrEqual(SALES + 1);
    // No 200 went out while a write's WAL frames were only in the page cache.
    expect(answered.filter((answer) => answer.unflushed)).toEqual([]);
    // The flushes the sales waited for ran on libuv's pool, not on the thread that serves requests.
    for (const sale of sales) expect([0, mainThread]).not.toContain(sale.flushedBy);

    // Checkpoints while the sales went on (up to the last answer, before shutdown's own checkpoint).
    const lastAnswer = calls.findLastIndex((call) => /<TCP(v6)?:\[.*"HTTP\/1\.1 200/.test(call.line));
    const database = (call: Call) => call.line.includes(`${DATABASE_FILE}>`);
    let copiedSinceFlush = false;
    let pagesCopied = 0;
    let restarts = 0;
    const mainThreadFlushes: string[] = [];
    const unsafeRestarts: string[] = [];
    /** The last WAL write on the main thread was a frame (a COMMIT's), not the header. */
    let framesWritten = false;
    let sqliteWal: number | undefined;
    const descriptor = (call: Call) => Number(/^\d+\s+\w+\((\d+)</.exec(call.line)?.[1]);
    const commitsFlushedInline: string[] = [];
    // From the answer before the first sale (the store's creation): start-up's own commits (a purge's plan) keep their fsync.
    const answerIndexes = calls.flatMap((call, index) => (/<TCP(v6)?:\[.*"HTTP\/1\.1 200/.test(call.line) ? [index] : []));
    const salesStart = answerIndexes.at(-SALES - 1) ?? 0;
    for (const [index, call] of calls.slice(0, lastAnswer).entries()) {
      if (call.tid === mainThread && wal(call) && call.name === 'pwrite64') {
        framesWritten = !/, 0\) += \d+$/.test(call.line);
        sqliteWal = descriptor(call);
      }
      // SQLite's own sync of the WAL, on the descriptor it writes with (the server's flushes use one of their own).
      if (call.tid === mainThread && wal(call) && (call.name === 'fsync' || call.name === 'fdatasync') && descriptor(call) === sqliteWal) {
        if (framesWritten && index > salesStart) commitsFlushedInline.push(call.line);
        framesWritten = false;
      }
      if (call.name === 'pwrite64' && database(call)) {
        copiedSinceFlush = true;
        pagesCopied += 1;
      }
      if ((call.name === 'fdatasync' || call.name === 'fsync') && database(call)) {
        copiedSinceFlush = false;
        if (call.tid === mainThread) mainThreadFlushes.push(call.line);
      }
      // The WAL header written at offset 0 again: the WAL restarts over frames whose pages were copied.
      if (call.name === 'pwrite64' && wal(call) && /, 0\) += \d+$/.test(call.line) && pagesCopied > 0) {
        restarts += 1;
        if (copiedSinceFlush) unsafeRestarts.push(call.line);
      }
    }
    // A group's COMMIT leaves its fsync to the pool: the main thread syncs the WAL only for a new header.
    expect(commitsFlushedInline).toEqual([]);
    expect(pagesCopied).toBeGreaterThan(0);
    expect(restarts).toBeGreaterThan(0);
    // The WAL never started over while pages copied from it were only in the page cache.
    expect(unsafeRestarts).toEqual([]);
    // The database file's flushes ran on libuv's pool: no checkpoint fsync on the thread that serves requests.
    expect(mainThreadFlushes).toEqual([]);
  }, 120_000);
});
