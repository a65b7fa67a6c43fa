/**
 * Run as `node --expose-gc --import tsx test/support/gc-pressure-client.ts <case>`
 * by test/client-time-limits.test.ts: the garbage collector runs every few
 * milliseconds in this process while the typed client waits on a server that
 * stops talking, and the outcome is printed as one line of JSON.
 *
 * `silent`: a server that accepts and never answers; `stalled`: one that sends
 * the head and half of a body, then stalls; both called with a 500 ms limit
 * and no retry.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStoreClient, StoreNetworkError } from '../../client/src/index.js';

const LIMIT_MS = 500;
/** How long this script waits at most before it reports that nothing ended. */
const GIVE_UP_MS = 30_000;

const collect = globalThis.gc;
if (!collect) throw new Error('run with --expose-gc');
// Garbage to collect and a collection every 5 ms: what takes an unreferenced timeout signal away.
const pressure = setInterval(() => {
  Array.from({ length: 2000 }, (_, i) => ({ i, text: `x${i}` }));
  collect();
}, 5);

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
}

const silent = () => listen(() => undefined);
const stalled = () =>
  listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
    res.write(`{"status":"ok","padding":"${'0'.repeat(400)}`);
  });

async function call(start: typeof silent): Promise<unknown> {
  const { server, url } = await start();
  const client = createStoreClient({ baseUrl: url, timeoutMs: LIMIT_MS, retries: 0 });
  const giveUp = new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), GIVE_UP_MS).unref());
  const result = await Promise.race([
    client.get('/health').then(
      () => 'answered',
      (err: unknown) => (err instanceof StoreNetworkError ? { error: 'StoreNetworkError', message: err.message } : { error: String(err) }),
    ),
    giveUp,
  ]);
  server.closeAllConnections();
  server.close();
  return { result, limitMs: LIMIT_MS };
}

const cases: Record<string, () => Promise<unknown>> = { silent: () => call(silent), stalled: () => call(stalled) };
const run = cases[process.argv[2] ?? ''];
if (!run) throw new Error(`name a case: ${Object.keys(cases).join(', ')}`);
const outcome = await run();
clearInterval(pressure);
process.stdout.write(`${JSON.stringify(outcome)}\n`);
process.exit(0);
