import autocannon from 'autocannon';

export interface LoadResult {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Runs autocannon against one endpoint. `nextPath`/`nextBody` give each request
 * its own target, so lookups spread over the whole catalog.
 */
export async function load(options: {
  url: string;
  seconds: number;
  connections?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  nextPath: () => string;
  nextBody?: () => string;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  let finish: (result: autocannon.Result) => void = () => {};
  let fail: (err: unknown) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const instance = autocannon({
    url: options.url,
    connections: options.connections ?? 10,
    duration: options.seconds,
    headers: options.headers ?? {},
    requests: [
      {
        method: options.method ?? 'GET',
        setupRequest: (request) => {
          request.path = options.nextPath();
          if (options.nextBody) {
            request.body = options.nextBody();
            request.headers = { ...request.headers, 'content-type': 'application/json' };
          }
          return request;
        },
      },
    ],
  }, (err, result) => (err ? fail(err) : finish(result)));
  instance.on('response', (_client: unknown, _status: number, _bytes: number, responseTime: number) => latencies.push(responseTime));
  const result = await done;
  latencies.sort((a, b) => a - b);
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Times `count` sequential requests made by `run`; returns milliseconds per request, sorted. */
export async function timeSequential(count: number, run: (i: number) => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}
