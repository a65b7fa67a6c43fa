/** Calls of the staff page to this server's API, with the key staff signed in with. */
import type { ListMeta } from '../../shared/api/common.js';

export type CallFailure = 'refused' | 'unreachable' | 'failed' | 'insecure';

export class CallError extends Error {
  constructor(
    readonly failure: CallFailure,
    readonly status: number,
    message: string,
    /** The answer's `data`, where a refusal carries one (a catalog file's check). */
    readonly data?: unknown,
    /** A validation refusal's fields and their reasons (`error.fieldErrors`). */
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
  }
}

export const API_BASE = new URL('api/v1', window.location.href).href;

const { protocol, hostname } = window.location;
/**
 * A key may leave this page: over HTTPS, or to this PC itself. Over plain HTTP
 * from another computer anyone on the network could read it; the server would
 * refuse a write key then, but only after it crossed the network.
 */
export const keysTravelSafely = protocol === 'https:' || hostname === 'localhost' || hostname === '[::1]' || /^127\./.test(hostname);
/** Where this page is served once HTTPS is on (the server serves HTTPS on the same port). */
export const httpsAddress = `https://${window.location.host}${window.location.pathname}`;

/** Headers a call adds: `Idempotency-Key` so a repeated save creates nothing twice, `If-Match` so it overwrites nothing unseen. */
export type CallHeaders = Partial<Record<'idempotency-key' | 'if-match', string>>;

async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, key?: string, body?: unknown, extra: CallHeaders = {}): Promise<T> {
  return (await answered<T>(method, path, key, body, extra)).answer;
}

async function answered<T>(method: 'GET' | 'POST' | 'DELETE', path: string, key?: string, body?: unknown, extra: CallHeaders = {}): Promise<{ answer: T; res: Response }> {
  let res: Response;
  if (key && !keysTravelSafely) throw new CallError('insecure', 0, 'a key is not sent over plain HTTP to another computer');
  const headers: Record<string, string> = { ...extra, ...(key ? { authorization: `Bearer ${key}` } : {}) };
  // A file (an image, a catalog file) goes as it is, with the type the browser gives it.
  const raw = body instanceof FormData || body instanceof Blob;
  if (body !== undefined && !raw) headers['content-type'] = 'application/json';
  try {
    res = await fetch(`${API_BASE}${path}`, { method, cache: 'no-store', headers, body: body === undefined ? undefined : raw ? body : JSON.stringify(body) });
  } catch {
    throw new CallError('unreachable', 0, 'not answering');
  }
  const answer = (await res.json().catch(() => ({}))) as { message?: string; data?: unknown; error?: { fieldErrors?: Record<string, string[]> } };
  if (!res.ok) {
    const fields = answer.error && typeof answer.error === 'object' ? (answer.error.fieldErrors ?? {}) : res.status === 400 ? namedFields(answer.message) : {};
    const message = answer.message ?? (Object.entries(fields).map(([field, reasons]) => `${field}: ${reasons.join(', ')}`).join('; ') || `answered ${res.status}`);
    throw new CallError(res.status === 403 ? 'refused' : 'failed', res.status, message, answer.data, fields);
  }
  return { answer: answer as T, res };
}

/**
 * A body's refusal names its fields in the message (`adminMail: must be an
 * e-mail address; price: …`): the same map a query's refusal carries.
 */
function namedFields(message: string | undefined): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const part of (message ?? '').split('; ')) {
    const named = /^([A-Za-z][\w.]*): (.+)$/.exec(part);
    if (named) (fields[named[1]!] ??= []).push(named[2]!);
  }
  return fields;
}

export const getPublic = <T>(path: string) => call<T>('GET', path);
export const getData = async <T>(path: string, key: string) => (await call<{ data: T }>('GET', path, key)).data;
export const postData = async <T>(path: string, key: string, body?: unknown, headers?: CallHeaders) => (await call<{ data: T }>('POST', path, key, body, headers)).data;
/** A POST whose answer is not wrapped in `data` (creations). */
export const postAnswer = <T>(path: string, key: string, body: unknown, headers?: CallHeaders) => call<T>('POST', path, key, body, headers);
/** A read with the version tag the server gives it, for a later `If-Match`. */
export async function getTagged<T>(path: string, key: string): Promise<{ data: T; etag: string | undefined }> {
  const { answer, res } = await answered<{ data: T }>('GET', path, key);
  return { data: answer.data, etag: res.headers.get('etag') ?? undefined };
}
export const deleteData = (path: string, key: string) => call<{ success: boolean }>('DELETE', path, key);

/** Every item of a list endpoint, following `meta.nextCursor`. */
export async function getAll<T>(path: string, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ data: T[]; meta: { nextCursor?: string } }>('GET', `${path}?limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key);
    items.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return items;
}

/** A GET answered as it comes (a catalog file), for reading as text or in part. */
export async function getFile(path: string, key: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { cache: 'no-store', headers: { authorization: `Bearer ${key}` } });
  } catch {
    throw new CallError('unreachable', 0, 'not answering');
  }
  if (!res.ok) {
    const answer = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CallError(res.status === 403 ? 'refused' : 'failed', res.status, answer.message ?? `answered ${res.status}`);
  }
  return res;
}

/** One page of a list endpoint with its `meta`. */
export const getPage = <T>(path: string, key: string) => call<{ data: T[]; meta: ListMeta }>('GET', path, key);
