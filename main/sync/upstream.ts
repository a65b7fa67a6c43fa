import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** One call to the upstream's v1 API. */
export interface UpstreamRequest {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under the upstream base URL, e.g. `/products/abc`. */
  path: string;
  json?: unknown;
  /**
   * A stored file sent as the multipart part `file`; `failedBefore` counts its
   * earlier attempts that got no answer, each of which doubles its time.
   */
  upload?: { path: string; contentType: string; failedBefore: number };
  idempotencyKey?: string;
  /** Time allowed for this call instead of the client's `timeoutMs`, in milliseconds. */
  timeoutMs?: number;
  /** Further request headers. */
  headers?: Record<string, string>;
  /** For an update: the upstream time up to which this store had seen the record's collection (`Sync-Base-Updated-At`). */
  baseUpdatedAt?: string | undefined;
}

/** What came back: an answer, or no answer at all. */
export type UpstreamResult =
  | { kind: 'answer'; status: number; body: unknown; retryAfter: string | undefined }
  | { kind: 'no-answer'; message: string };

export interface Upstream {
  send(request: UpstreamRequest): Promise<UpstreamResult>;
}

export interface HttpUpstreamOptions {
  /**
   * Longest silence allowed in one call, in milliseconds; default 30,000: no
   * answer this long after the request went out, or no byte of the answer
   * this long while it comes in, ends the call. A slow line that keeps moving
   * is never cut.
   */
  timeoutMs?: number | undefined;
  /** Slowest line an upload must still get through, in bytes per second; default 32,000 (256 kbit/s). */
  uploadBytesPerSecond?: number | undefined;
  /** Aborts calls in flight when the server shuts down. */
  signal?: AbortSignal | undefined;
}

/**
 * A limit that fires: a timer of our own, armed and re-armed by hand, whose
 * callback holds the controller. (A signal of `AbortSignal.timeout` combined
 * through `AbortSignal.any` is lost on Node 20 once the garbage collector
 * takes the timeout signal, and the call then waits for ever.)
 */
class SilenceLimit {
  readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly onStop = () => this.controller.abort(new DOMException('The server is shutting down', 'AbortError'));

  constructor(private readonly stop: AbortSignal | undefined) {
    if (stop?.aborted) this.onStop();
    stop?.addEventListener('abort', this.onStop, { once: true });
  }

  /** From now, `ms` without progress ends the call. */
  arm(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new DOMException('The upstream went silent', 'TimeoutError')), ms);
  }

  end(): void {
    clearTimeout(this.timer);
    this.stop?.removeEventListener('abort', this.onStop);
  }
}

/**
 * Reads an answer's body, re-arming the limit on every piece that arrives.
 * Each read also ends when the limit fires, whether or not the stream passes
 * the abort on: a read left waiting on a body whose socket is gone would hold
 * its round, and the server's shutdown behind it, for ever.
 */
async function readBody(res: Response, limit: SilenceLimit, silenceMs: number): Promise<string> {
  if (!res.body) return '';
  const decoder = new TextDecoder();
  const parts: string[] = [];
  const reader = res.body.getReader();
  const signal = limit.controller.signal;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  // Observed by the race below; this keeps a limit that fires between two reads from being reported as unhandled.
  aborted.catch(() => undefined);
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), aborted]);
      if (done) break;
      limit.arm(silenceMs);
      parts.push(decoder.decode(value, { stream: true }));
    }
  } catch (err) {
    reader.cancel(err).catch(() => undefined);
    throw err;
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
  parts.push(decoder.decode());
  return parts.join('');
}

/**
 * A multipart body with a boundary derived from the idempotency key, so a
 * retried upload is byte for byte the request the upstream saw first.
 */
async function multipart(upload: NonNullable<UpstreamRequest['upload']>, seed: string): Promise<{ body: Buffer; type: string }> {
  const boundary = `----sync${createHash('sha256').update(seed).digest('hex').slice(0, 24)}`;
  const bytes = await readFile(upload.path);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image"\r\nContent-Type: ${upload.contentType}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/** Doublings of an upload's time after attempts that ran out of it: up to a line 64 times slower. */
const MAX_DOUBLINGS = 6;

/**
 * An upload's time follows its size: `timeoutMs` for the answer plus its bytes
 * at the slowest line it must get through. 10 MB take 80 s at 1 Mbit/s, far
 * past the 30 s a JSON call gets; at the default 256 kbit/s they have 5.5 min.
 * A line slower still gets twice the time on each next attempt.
 */
const uploadTimeoutMs = (bytes: number, timeoutMs: number, bytesPerSecond: number, failedBefore = 0): number =>
  timeoutMs + Math.ceil((bytes * 1000 * 2 ** Math.min(failedBefore, MAX_DOUBLINGS)) / bytesPerSecond);

/** The upstream over HTTP with its write key. The key goes into the Authorization header and nowhere else. */
export function httpUpstream(baseUrl: string, key: string, options: HttpUpstreamOptions = {}): Upstream {
  const base = baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const uploadBytesPerSecond = options.uploadBytesPerSecond ?? 32_000;
  return {
    async send(request) {
      const headers: Record<string, string> = { ...request.headers, authorization: `Bearer ${key}` };
      if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
      if (request.baseUpdatedAt) headers['sync-base-updated-at'] = request.baseUpdatedAt;
      let body: Buffer | string | undefined;
      let budgetMs = request.timeoutMs ?? timeoutMs;
      if (request.upload) {
        const form = await multipart(request.upload, request.idempotencyKey ?? request.path);
        body = form.body;
        headers['content-type'] = form.type;
        budgetMs = uploadTimeoutMs(body.length, timeoutMs, uploadBytesPerSecond, request.upload.failedBefore);
      } else if (request.json !== undefined) {
        body = JSON.stringify(request.json);
        headers['content-type'] = 'application/json';
      }
      // Asked for explicitly: fetch offers only gzip and deflate over plain http, and a full pull is megabytes of JSON.
      headers['accept-encoding'] = 'br, gzip';
      const limit = new SilenceLimit(options.signal);
      try {
        // Until the answer's head arrives: an upload's time follows its size (a proxy may hold its bytes until all came in).
        limit.arm(budgetMs);
        const res = await fetch(base + request.path, { method: request.method, headers, body, signal: limit.controller.signal });
        limit.arm(timeoutMs);
        const text = await readBody(res, limit, timeoutMs);
        let parsed: unknown = text;
        try {
          parsed = text === '' ? undefined : JSON.parse(text);
        } catch {
          // Not JSON (a proxy's error page): keep the text for the message.
        }
        return { kind: 'answer', status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') ?? undefined };
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        const reason = limit.controller.signal.aborted ? (limit.controller.signal.reason as Error | undefined)?.name : undefined;
        return { kind: 'no-answer', message: reason ?? cause ?? (err as Error).name ?? 'network error' };
      } finally {
        limit.end();
      }
    },
  };
}
