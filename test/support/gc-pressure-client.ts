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
import { createStoreClient, StoreNetworkError } from '../../client/src/index.js';
import { giveUpAfter, runUnderGcPressure, silentServer, stalledServer } from './gc-pressure.js';

const LIMIT_MS = 500;
/** How long this script waits at most before it reports that nothing ended. */
const GIVE_UP_MS = 30_000;

const stalled = () => stalledServer(`{"status":"ok","padding":"${'0'.repeat(400)}`);

async function call(start: typeof silentServer): Promise<unknown> {
  const { server, url } = await start();
  const client = createStoreClient({ baseUrl: url, timeoutMs: LIMIT_MS, retries: 0 });
  const result = await Promise.race([
    client.get('/health').then(
      () => 'answered',
      (err: unknown) => (err instanceof StoreNetworkError ? { error: 'StoreNetworkError', message: err.message } : { error: String(err) }),
    ),
    giveUpAfter(GIVE_UP_MS),
  ]);
  server.closeAllConnections();
  server.close();
  return { result, limitMs: LIMIT_MS };
}

await runUnderGcPressure({ silent: () => call(silentServer), stalled: () => call(stalled) });
