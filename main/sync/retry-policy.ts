import type { UpstreamResult } from './upstream.js';

/** What to do with an entry after one attempt. A closed set: the worker handles each. */
export type Verdict =
  | { kind: 'accepted' }
  | { kind: 'retry'; reason: 'offline' | 'server-error' | 'timeout' | 'rate-limited' | 'in-progress'; message: string; retryAfterMs: number | undefined }
  | { kind: 'refused'; message: string }
  | { kind: 'park'; status: number; message: string };

export interface BackoffOptions {
  /** First delay, in milliseconds; default 1,000. */
  baseMs: number;
  /** Longest delay, in milliseconds; default 300,000 (5 minutes). */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 1000, maxMs: 300_000 };

const messageOf = (body: unknown): string => {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') return body.message;
  if (body && typeof body === 'object' && 'error' in body) return JSON.stringify(body.error);
  return typeof body === 'string' && body !== '' ? body.slice(0, 200) : 'no message';
};

/** `Retry-After` as seconds or an HTTP date, in milliseconds from `now`. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * The upstream's 409 for a request whose `Idempotency-Key` is still being
 * answered: an earlier copy of this very call (cut off on our side, or sent by
 * a round that overlapped) is still running there, so the outcome is its.
 */
const STILL_RUNNING = /Idempotency-Key .* is still being processed/;

/**
 * Sorts an upstream answer: network errors, timeouts, 5xx, 408, 429 and a 409
 * for a key still being processed are worth retrying; 401, and a 403 other than `Feature not available`, mean the
 * key is refused; any other 4xx refuses this one entry.
 */
export function judge(result: UpstreamResult, now: Date): Verdict {
  if (result.kind === 'no-answer') {
    const timeout = result.message === 'TimeoutError';
    return { kind: 'retry', reason: timeout ? 'timeout' : 'offline', message: `upstream not reachable (${result.message})`, retryAfterMs: undefined };
  }
  const { status, body } = result;
  if (status >= 200 && status < 300) return { kind: 'accepted' };
  const message = messageOf(body);
  if (status >= 500 || status === 408 || status === 429) {
    return {
      kind: 'retry',
      reason: status === 429 ? 'rate-limited' : status === 408 ? 'timeout' : 'server-error',
      message: `upstream answered ${status}: ${message}`,
      retryAfterMs: retryAfterMs(result.retryAfter, now),
    };
  }
  if (status === 409 && STILL_RUNNING.test(message)) {
    return { kind: 'retry', reason: 'in-progress', message: `upstream is still answering an earlier copy: ${message}`, retryAfterMs: undefined };
  }
  if (status === 401 || (status === 403 && message !== 'Feature not available')) {
    return { kind: 'refused', message: `upstream refused the key (${status}: ${message})` };
  }
  return { kind: 'park', status, message };
}

/**
 * Delay before attempt `failures + 1`: exponential from `baseMs` up to `maxMs`
 * with "full jitter" (a random share of the step), never shorter than what the
 * upstream asked for with `Retry-After`.
 */
export function backoffDelay(failures: number, random: number, options: BackoffOptions = DEFAULT_BACKOFF, asked?: number): number {
  const step = Math.min(options.maxMs, options.baseMs * 2 ** Math.max(0, failures - 1));
  const jittered = Math.round(step / 2 + (random * step) / 2);
  return Math.max(jittered, asked === undefined ? 0 : Math.min(asked, options.maxMs));
}
