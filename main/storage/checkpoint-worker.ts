import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code, plain CommonJS so that it runs the same from the
 * sources, the build and the packaged app: a connection of its own that
 * copies the WAL into the database file when asked, without an fsync (the
 * caller flushes the file afterwards).
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('synchronous = OFF');
parentPort.on('message', () => {
  try {
    parentPort.postMessage({ log: db.pragma('wal_checkpoint(PASSIVE)')[0].log });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

/**
 * Checkpoints of one database file on a thread of their own, for a WAL a
 * large write made long: copying a hundred megabytes into the database file
 * takes the better part of a second, which on the server's own thread would
 * hold every request that long. A PASSIVE checkpoint on another connection
 * is safe while the server's connection reads and writes.
 */
export function createCheckpointWorker(file: string) {
  let worker: Worker | undefined;
  let pending: { resolve: (log: number) => void; reject: (error: Error) => void } | undefined;
  const fail = (error: Error) => {
    const waiting = pending;
    pending = undefined;
    worker = undefined;
    waiting?.reject(error);
  };
  const start = (): Worker => {
    const started = new Worker(WORKER, { eval: true, workerData: { driver, file } });
    started.unref();
    started.on('message', (message: { log?: number; error?: string }) => {
      const waiting = pending;
      pending = undefined;
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.log ?? 0);
    });
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`the checkpoint thread stopped (exit code ${code})`)));
    return started;
  };
  return {
    /** Copies the WAL into the database file; resolves with the WAL's length in pages. One at a time. */
    copy(): Promise<number> {
      return new Promise((resolve, reject) => {
        if (pending) return reject(new Error('a checkpoint is already running'));
        pending = { resolve, reject };
        (worker ??= start()).postMessage('checkpoint');
      });
    },
    async close(): Promise<void> {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
