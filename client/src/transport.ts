import { StoreNetworkError } from './errors.js';

export interface TransportOptions {
  /** Longest wait for one attempt's whole answer, in milliseconds. */
  timeoutMs: number;
  /** Further attempts of an idempotent call after a network error or a 503. */
  retries: number;
  /** Pause before the first further attempt, in milliseconds; it doubles with each attempt. */
  retryDelayMs: number;
  fetch: (request: Request) => Promise<Response>;
}

/** A random key per call; `getRandomValues` works on pages served over plain http too, unlike `randomUUID`. */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Only calls the server can safely see twice are repeated: reads, and POSTs
 * with an `Idempotency-Key`, whose repeat replays the first answer.
 */
function isIdempotent(request: Request): boolean {
  return request.method === 'GET' || request.method === 'HEAD' || request.headers.has('idempotency-key');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * An attempt's time limit: a timer of its own whose callback holds the
 * controller. (A signal of `AbortSignal.timeout` combined through
 * `AbortSignal.any` is lost on Node 20 once the garbage collector takes the
 * timeout signal, and the call then waits for ever.)
 */
function attemptLimit(caller: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  const onCaller = () => controller.abort(caller.reason);
  if (caller.aborted) onCaller();
  else caller.addEventListener('abort', onCaller, { once: true });
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
  // Rejects when the attempt is aborted; raced with every await, since a body stream need not pass the abort on.
  const aborted = new Promise<never>((_, reject) => {
    const { signal } = controller;
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  return {
    signal: controller.signal,
    within: <T>(work: Promise<T>): Promise<T> => Promise.race([work, aborted]),
    end(): void {
      clearTimeout(timer);
      caller.removeEventListener('abort', onCaller);
    },
  };
}

/**
 * One attempt, answer read in full: a connection that drops in the middle of
 * the body is a network error like one that never answered, and is retried.
 */
async function attempt(request: Request, options: TransportOptions): Promise<Response> {
  const limit = attemptLimit(request.signal, options.timeoutMs);
  try {
    const response = await limit.within(options.fetch(new Request(request.clone(), { signal: limit.signal })));
    const body = await limit.within(response.arrayBuffer());
    return new Response(body.byteLength > 0 ? body : null, { status: response.status, statusText: response.statusText, headers: response.headers });
  } finally {
    limit.end();
  }
}

/** The fetch the client runs every call through: a timeout per attempt, and retries for idempotent calls. */
export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const attempts = isIdempotent(request) ? options.retries + 1 : 1;
    const call = `${request.method} ${request.url}`;
    for (let n = 1; ; n++) {
      let failure: unknown;
      try {
        const response = await attempt(request, options);
        if (response.status !== 503 || n >= attempts) return response;
      } catch (err) {
        // The caller gave up: no retry, and its own abort reason, not a network error.
        if (request.signal.aborted) throw err;
        failure = err;
      }
      if (n >= attempts && failure !== undefined) {
        const reason = failure instanceof Error && failure.name === 'TimeoutError' ? `no answer within ${options.timeoutMs} ms` : describe(failure);
        throw new StoreNetworkError(`${call}: ${reason}${attempts > 1 ? ` (${attempts} attempts)` : ''}`, { cause: failure });
      }
      await pause(options.retryDelayMs * 2 ** (n - 1));
    }
  };
}

/** fetch's own TypeError says only "fetch failed"; the reason (refused, reset) is in its cause. */
function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}
