import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the gc-pressure scripts share: servers that stop talking, and a
 * process whose garbage collector runs every few milliseconds while a caller
 * waits on them (what takes an unreferenced timeout signal away).
 */
export async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
}

/** A server that accepts and never answers. */
export const silentServer = () => listen(() => undefined);

/** A server that sends the head and the start of a 2000-byte body, then stalls. */
export const stalledServer = (bodyStart: string) =>
  listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2000' });
    res.write(bodyStart);
  });

/** Resolves to 'still waiting' once `ms` passed: what a call that never ends comes to. */
export const giveUpAfter = (ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve('still waiting'), ms).unref());

/**
 * Runs the case named on the command line while the collector runs every
 * 5 ms, prints its outcome as one line of JSON and exits.
 */
export async function runUnderGcPressure(cases: Record<string, () => Promise<unknown>>): Promise<never> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('run with --expose-gc');
  const run = cases[process.argv[2] ?? ''];
  if (!run) throw new Error(`name a case: ${Object.keys(cases).join(', ')}`);
  const pressure = setInterval(() => {
    Array.from({ length: 2000 }, (_, i) => ({ i, text: `x${i}` }));
    collect();
  }, 5);
  const outcome = await run();
  clearInterval(pressure);
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
  process.exit(0);
}
