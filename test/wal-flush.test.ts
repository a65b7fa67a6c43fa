import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../main/services/clock.js';
import { createServices } from '../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../main/storage/database.js';
import { PROJECT_ROOT } from '../main/version.js';
import { compiled } from './support/compiled-product.js';
import { freePort } from './support/processes.js';
import { makeDataDir } from './support/server.js';

const SALES = 12;
const dataDir = makeDataDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

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
  it("is answered only after its WAL is flushed to disk, and the flush runs off the event loop's thread", async () => {
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
  }, 120_000);
});
