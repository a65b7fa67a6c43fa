import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Rows posted back per message: each is taken in its own turn of the event loop, a few milliseconds each. */
const ROWS_PER_MESSAGE = 500;

/**
 * The worker's code, plain CommonJS so that it runs the same from the
 * sources, the build and the packaged app: it reads the first sheet with
 * read-excel-file and posts its rows back a slice at a time.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { readSheet } = require(workerData.reader);
readSheet(Buffer.from(workerData.bytes), 1).then(
  (rows) => {
    for (let at = 0; at < rows.length; at += workerData.slice) parentPort.postMessage({ rows: rows.slice(at, at + workerData.slice) });
    parentPort.postMessage({ done: true });
  },
  (error) => parentPort.postMessage({ error: String((error && error.message) || error) }),
);
`;

const reader = createRequire(import.meta.url).resolve('read-excel-file/node');

/**
 * The rows of a workbook's first sheet, read in a worker thread: parsing
 * the sheet's XML takes the better part of a second for 20,000 rows, which
 * on the server's own thread would hold every scanner's lookup that long.
 */
export function readFirstSheet(bytes: Buffer): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    const rows: unknown[][] = [];
    const worker = new Worker(WORKER, { eval: true, workerData: { reader, bytes, slice: ROWS_PER_MESSAGE } });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      outcome();
    };
    worker.on('message', (message: { rows?: unknown[][]; done?: true; error?: string }) => {
      if (message.rows) rows.push(...message.rows);
      else if (message.done) settle(() => resolve(rows));
      else settle(() => reject(new Error(message.error)));
    });
    worker.on('error', (error) => settle(() => reject(error)));
    worker.on('exit', (code) => settle(() => reject(new Error(`the reader stopped (exit code ${code})`))));
  });
}
