import { Agent, request } from 'node:http';

/** One request's outcome as the simulated store PC sees it. */
interface Answer {
  status: number;
  ms: number;
  /** The upstream's clock at the answer (`Date` header), in ms since the epoch. */
  upstreamTime: number;
  body: unknown;
}

/** How the upstream lists one pulled collection. */
export interface Collection {
  path: string;
  /** Whether the list takes `updatedSince` (the change feed); otherwise it is read whole on every pull. */
  feed: boolean;
  /** Largest `limit` the list takes. */
  limit: number;
}

/** Latencies and failures of one step, shared by every simulated store. */
export interface Recorder {
  pushMs: number[];
  pullMs: number[];
  heartbeatMs: number[];
  /** Failed calls by what failed: `POST /orders 409`, `GET /stores 0` (no answer). */
  errors: Record<string, number>;
  rows: number;
}

const failed = (recorder: Recorder, what: string) => {
  recorder.errors[what] = (recorder.errors[what] ?? 0) + 1;
};

/** The HTTP side of the simulation: one keep-alive pool, as many store PCs behind one NAT would have. */
export function chainClient(apiBase: string, writeKey: string) {
  const base = new URL(apiBase);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const send = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
    new Promise((resolve) => {
      const started = performance.now();
      const body = json === undefined ? undefined : Buffer.from(JSON.stringify(json));
      const req = request(
        {
          agent,
          hostname: base.hostname,
          port: base.port,
          method,
          path: `${base.pathname}${path}`,
          headers: { authorization: `Bearer ${writeKey}`, ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const ms = performance.now() - started;
            let parsed: unknown;
            try {
              parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            } catch {
              parsed = undefined;
            }
            resolve({ status: res.statusCode ?? 0, ms, upstreamTime: Date.parse(res.headers.date ?? '') || 0, body: parsed });
          });
        },
      );
      req.on('error', () => resolve({ status: 0, ms: performance.now() - started, upstreamTime: 0, body: undefined }));
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

export type ChainClient = ReturnType<typeof chainClient>;

/**
 * A store's first feed read starts from the upstream's `Date` header, which has
 * whole seconds; later reads start from the feed's own `completeUntil`.
 */
const OVERLAP_MS = 1000;

/**
 * A store PC reduced to its sync traffic: a sale every `saleMs` (`POST /orders`
 * with a sync worker's `Idempotency-Key` and `Sync-Acknowledged-Below`, lines
 * carrying title, price and tax rate) and a pull every `pullMs` (each
 * collection through its change feed where the upstream offers one, whole
 * otherwise). Where the upstream offers the fleet list, its state after each
 * pull, and after a push only when no report went for a pull interval
 * (`POST /fleet/heartbeat`, about 600 bytes), as the store server's worker
 * sends it. Starts at a random point of both cycles, so a chain's stores do
 * not act in step.
 */
export function simulateStore(options: {
  client: ChainClient;
  storeId: string;
  /** Names the simulated device, which begins every `Idempotency-Key`: a new one for each run of the store, whose sale numbers start over. */
  keyPrefix: string;
  productIds: string[];
  collections: Collection[];
  saleMs: number;
  pullMs: number;
  /** Upstream time of the store's last pull, in ms since the epoch. */
  pulledAt: number;
  recorder: Recorder;
  inFlight: Set<Promise<unknown>>;
  /** Whether the upstream lists `POST /fleet/heartbeat`. */
  heartbeat: boolean;
  /** Told of every sale the upstream acknowledged, warm-up included. */
  onStored?: () => void;
}): { stop(): void } {
  const { client, recorder } = options;
  let sales = 0;
  let lastReport = 0;
  const device = `sim-${options.keyPrefix}-${options.storeId}`.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 64);
  const report = async (afterPush: boolean) => {
    if (!options.heartbeat || (afterPush && performance.now() - lastReport < options.pullMs)) return;
    lastReport = performance.now();
    const now = new Date().toISOString();
    const state = {
      device,
      name: `kasse-${options.storeId.slice(0, 8)}`,
      version: '0.1.0',
      stores: [options.storeId],
      lastPushAt: now,
      lastPullAt: now,
      pending: 0,
      parked: 0,
      oldestPendingAt: null,
      lastSaleAt: now,
      printers: [{ name: '192.168.1.40:9100', state: 'ready' }],
      diskFreeBytes: 51_234_567_890,
      databaseBytes: 73_400_320,
    };
    const answer = await client.send('POST', '/fleet/heartbeat', state);
    recorder.heartbeatMs.push(answer.ms);
    if (answer.status !== 200) failed(recorder, `POST /fleet/heartbeat ${answer.status}`);
  };
  // Where each collection's feed was complete, as the upstream's `meta.completeUntil` said: the store PC's protocol.
  const marks = new Map<string, string>();
  const firstMark = new Date(options.pulledAt - OVERLAP_MS).toISOString();
  let pulling = false;
  const track = (task: Promise<unknown>) => {
    options.inFlight.add(task);
    void task.finally(() => options.inFlight.delete(task));
  };

  const sell = async () => {
    sales += 1;
    const productId = options.productIds[Math.floor(Math.random() * options.productIds.length)]!;
    const line = { productId, quantity: 1, title: 'Artikel', price: 100 + (sales % 500), taxRate: 0.081, deposit: 0 };
    // As a store PC's worker sends it: a sync key of its installation, and every earlier entry settled.
    const headers = { 'idempotency-key': `sync-${device}-${sales}`, 'sync-acknowledged-below': String(sales) };
    const answer = await client.send('POST', '/orders', { store: options.storeId, products: [line] }, headers);
    recorder.pushMs.push(answer.ms);
    if (answer.status !== 200) failed(recorder, `POST /orders ${answer.status}`);
    else options.onStored?.();
    await report(true);
  };

  const pull = async () => {
    if (pulling) return;
    pulling = true;
    try {
      for (const collection of options.collections) {
        let cursor: string | undefined;
        let completeUntil: string | undefined;
        do {
          const query = new URLSearchParams({ limit: String(collection.limit) });
          if (collection.feed) query.set('updatedSince', marks.get(collection.path) ?? firstMark);
          if (cursor) query.set('cursor', cursor);
          const answer = await client.send('GET', `${collection.path}?${query}`);
          recorder.pullMs.push(answer.ms);
          if (answer.status !== 200) {
            failed(recorder, `GET ${collection.path} ${answer.status}`);
            return;
          }
          const page = answer.body as { data: unknown[]; meta?: { nextCursor?: string; completeUntil?: string } };
          recorder.rows += page.data.length;
          completeUntil ??= page.meta?.completeUntil;
          cursor = page.meta?.nextCursor;
        } while (cursor);
        if (completeUntil) marks.set(collection.path, completeUntil);
      }
      await report(false);
    } finally {
      pulling = false;
    }
  };

  const timers: NodeJS.Timeout[] = [];
  const every = (ms: number, run: () => Promise<void>) => {
    const first = setTimeout(() => {
      track(run());
      timers.push(setInterval(() => track(run()), ms));
    }, Math.random() * ms);
    timers.push(first);
  };
  every(options.saleMs, sell);
  every(options.pullMs, pull);
  return {
    stop: () => {
      for (const timer of timers) clearTimeout(timer);
    },
  };
}
