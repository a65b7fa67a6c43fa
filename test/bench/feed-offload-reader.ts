import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { createProductStore, type ProductPageQuery } from '../../main/storage/products.js';

/** A feed reader on its own read-only connection: answers each page as the JSON the route would send. */
const db = new Database((workerData as { file: string }).file, { readonly: true });
const products = createProductStore(db);
parentPort?.on('message', (ask: { id: number; query: ProductPageQuery }) => {
  parentPort?.postMessage({ id: ask.id, json: JSON.stringify({ data: products.page(ask.query) }) });
});
parentPort?.postMessage('ready');
