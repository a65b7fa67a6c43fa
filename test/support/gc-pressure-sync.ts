/**
 * Run as `node --expose-gc --import tsx test/support/gc-pressure-sync.ts <case>`
 * by test/sync-time-limits.test.ts: the garbage collector runs every few
 * milliseconds in this process while an upstream call waits on a server that
 * stops talking, and the outcome is printed as one line of JSON.
 *
 * `silent`: a server that accepts and never answers; `stalled`: one that sends
 * the head and half of a body, then stalls; both called through the sync
 * worker's upstream client with a 1 s limit. `store`: a store server whose
 * upstream accepts and never answers, after a sale: its sync state and queue.
 */
import { join } from 'node:path';
import { startServer } from '../../main/server.js';
import { systemClock } from '../../main/services/clock.js';
import { createServices } from '../../main/services/index.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { httpUpstream } from '../../main/sync/upstream.js';
import { makeDataDir } from './server.js';
import { giveUpAfter, runUnderGcPressure, silentServer, stalledServer } from './gc-pressure.js';
import { configureSync } from './sync.js';

const LIMIT_MS = 1000;
/** How long this script waits at most before it reports that nothing ended. */
const GIVE_UP_MS = 60_000;

const stalled = () => stalledServer(`{"data":[${'0,'.repeat(400)}`);

async function call(start: typeof silentServer): Promise<unknown> {
  const { server, url } = await start();
  // A stop signal as the worker passes one: the limit must fire beside it.
  const shutdown = new AbortController();
  const upstream = httpUpstream(url, 'key', { timeoutMs: LIMIT_MS, signal: shutdown.signal });
  const result = await Promise.race([upstream.send({ method: 'GET', path: '/products' }), giveUpAfter(GIVE_UP_MS)]);
  server.closeAllConnections();
  server.close();
  shutdown.abort();
  return { result, limitMs: LIMIT_MS };
}

async function store(): Promise<unknown> {
  const { server, url } = await silentServer();
  const dataDir = makeDataDir();
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  const org = createServices({ db, clock: systemClock }).organizations.create({ name: 'Filiale', features: [] });
  db.close();
  configureSync(dataDir, org.id, { url, key: 'upstream-key', intervalSeconds: 3600, pullIntervalSeconds: 3600 });
  const running = await startServer(
    { host: '127.0.0.1', port: 0, dataDir, logLevel: 'silent' },
    { sync: { tickMs: 20, debounceMs: 5, backoff: { baseMs: 10, maxMs: 80 }, timeoutMs: LIMIT_MS } },
  );
  const headers = { authorization: `Bearer ${org.writeKey}`, 'content-type': 'application/json' };
  const post = (path: string, body: unknown) => fetch(running.url + path, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) => r.json() as Promise<{ id: string }>);
  const storeId = (await post('/stores', { name: 'Filiale' })).id;
  const productId = (await post('/products', { name: 'Brot', price: 350, taxCategory: '2.6' })).id;
  await post('/orders', { store: storeId, products: [{ productId, quantity: 1 }] });
  const ends = Date.now() + GIVE_UP_MS;
  let status: { state?: string; pending?: number } = {};
  while (Date.now() < ends) {
    status = ((await (await fetch(`${running.url}/sync`, { headers })).json()) as { data: typeof status }).data;
    if (status.state === 'offline') break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  server.closeAllConnections();
  server.close();
  await running.close();
  return { state: status.state, pending: status.pending };
}

await runUnderGcPressure({ silent: () => call(silentServer), stalled: () => call(stalled), store });
