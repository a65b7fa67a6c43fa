/**
 * Calls of the staff page to this server's API. The key staff type goes out
 * once, to sign in; every other call is the sign-in's, by the HttpOnly cookie
 * the browser sends with it, so no key stays in the page.
 */
import type { ListMeta } from '../../shared/api/common.js';
import type { StaffSignIn } from '../../shared/api/staff-sign-in.js';

/** `signedOut`: the sign-in ended (12 hours, sign-out in another tab, its key revoked), so the page asks for the key again. */
export type CallFailure = 'refused' | 'signedOut' | 'unreachable' | 'failed' | 'insecure';

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

async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, extra: CallHeaders = {}, key?: string): Promise<T> {
  return (await answered<T>(method, path, body, extra, key)).answer;
}

/** What a refused call failed of: 401 is an ended sign-in, 403 a key or a sign-in that may not do this. */
const failureOf = (status: number): CallFailure => (status === 401 ? 'signedOut' : status === 403 ? 'refused' : 'failed');

async function answered<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown, extra: CallHeaders = {}, key?: string): Promise<{ answer: T; res: Response }> {
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
    throw new CallError(failureOf(res.status), res.status, message, answer.data, fields);
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
export const getData = async <T>(path: string) => (await call<{ data: T }>('GET', path)).data;
export const postData = async <T>(path: string, body?: unknown, headers?: CallHeaders) => (await call<{ data: T }>('POST', path, body, headers)).data;
/** A POST whose answer is not wrapped in `data` (creations). */
export const postAnswer = <T>(path: string, body: unknown, headers?: CallHeaders) => call<T>('POST', path, body, headers);
/** A read with the version tag the server gives it, for a later `If-Match`. */
export async function getTagged<T>(path: string): Promise<{ data: T; etag: string | undefined }> {
  const { answer, res } = await answered<{ data: T }>('GET', path);
  return { data: answer.data, etag: res.headers.get('etag') ?? undefined };
}
export const deleteData = (path: string) => call<{ success: boolean }>('DELETE', path);

/** Signs the page in with the key typed: the answer's cookie stands for the key from then on, in this tab and the next. */
export const signInWith = (key: string) => call<StaffSignIn>('POST', '/staff/sign-in', undefined, {}, key);
/** Ends the sign-in in every tab of this browser. */
export const signOut = () => call<{ success: boolean }>('DELETE', '/staff/sign-in');

/** Every item of a list endpoint, following `meta.nextCursor`. */
export async function getAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await call<{ data: T[]; meta: { nextCursor?: string } }>('GET', `${path}?limit=5000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return items;
}

/** A GET answered as it comes (a catalog file), for reading as text or in part. */
export async function getFile(path: string): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { cache: 'no-store' });
  } catch {
    throw new CallError('unreachable', 0, 'not answering');
  }
  if (!res.ok) {
    const answer = (await res.json().catch(() => ({}))) as { message?: string };
    throw new CallError(failureOf(res.status), res.status, answer.message ?? `answered ${res.status}`);
  }
  return res;
}

/** One page of a list endpoint with its `meta`. */
export const getPage = <T>(path: string) => call<{ data: T[]; meta: ListMeta }>('GET', path);
