import type { CountingProxy, Traffic } from './counting-proxy.js';
import { trafficSince } from './counting-proxy.js';
import { cpuMs } from './server-process.js';

export interface SteadyStateOptions {
  /** The store PC's API base, its keys and its server's process id. */
  localBase: string;
  readKey: string;
  writeKey: string;
  pid: number;
  /** The proxy between the store PC and its upstream. */
  proxy: CountingProxy;
  /** Local store and products (already pulled) the sales are made of. */
  store: string;
  productIds: string[];
  seconds: number;
  saleIntervalMs: number;
  /** Longest wait after the last sale for the queue to drain. */
  drainTimeoutMs: number;
}

export interface SteadyStateResult {
  sales: number;
  /** From the first sale until the last one was pushed. */
  seconds: number;
  traffic: Traffic;
  /** The store server's CPU time over the window, in seconds. */
  cpuSeconds: number;
  /** Whether every sale reached the upstream before `drainTimeoutMs`. */
  drained: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A store PC in steady state: one sale every `saleIntervalMs` for `seconds`,
 * as a till posts them, with nothing changed upstream. Counts what sync costs
 * from the first sale until the last one has been pushed.
 */
export async function runSteadyState(options: SteadyStateOptions): Promise<SteadyStateResult> {
  const { localBase, writeKey, pid, proxy } = options;
  const pending = async () =>
    ((await (await fetch(`${localBase}/sync`, { headers: { authorization: `Bearer ${options.readKey}` } })).json()) as { data: { pending: number } }).data.pending;
  const before = proxy.traffic();
  const cpuBefore = cpuMs(pid);
  const started = performance.now();
  let sales = 0;
  const ends = started + options.seconds * 1000;
  for (let next = started; next < ends; next += options.saleIntervalMs) {
    await pause(Math.max(0, next - performance.now()));
    const productId = options.productIds[sales % options.productIds.length]!;
    const res = await fetch(`${localBase}/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writeKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ store: options.store, products: [{ productId, quantity: 1 }] }),
    });
    if (res.status !== 200) throw new Error(`sale ${sales + 1}: POST /orders answered ${res.status} ${await res.text()}`);
    sales += 1;
  }
  const drainEnds = performance.now() + options.drainTimeoutMs;
  let drained = false;
  while (performance.now() < drainEnds && !(drained = (await pending()) === 0)) await pause(50);
  return {
    sales,
    seconds: (performance.now() - started) / 1000,
    traffic: trafficSince(before, proxy.traffic()),
    cpuSeconds: (cpuMs(pid) - cpuBefore) / 1000,
    drained,
  };
}
