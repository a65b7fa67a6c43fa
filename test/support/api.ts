type RequestBody = NonNullable<NonNullable<Parameters<typeof fetch>[1]>['body']>;

/** A minimal HTTP client over fetch for tests: every call returns status and parsed body. */
export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface Api {
  get<T = any>(path: string): Promise<ApiResponse<T>>;
  post<T = any>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = any>(path: string): Promise<ApiResponse<T>>;
  request<T = any>(method: string, path: string, init?: { body?: RequestBody; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
}

export function api(baseUrl: string, key?: string): Api {
  const request = async <T>(method: string, path: string, init: { body?: RequestBody; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...init.headers };
    const res = await fetch(baseUrl + path, { method, headers, ...(init.body !== undefined ? { body: init.body } : {}) });
    const text = await res.text();
    let body: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
    return { status: res.status, body: body as T, headers: res.headers };
  };
  return {
    request,
    get: (path) => request('GET', path),
    post: (path, body) =>
      request('POST', path, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    delete: (path) => request('DELETE', path),
  };
}

/** POSTs a creation that must succeed and returns the new record's id. */
export async function createdId(client: Api, path: string, body: unknown): Promise<string> {
  const res = await client.post(path, body);
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}

/** Follows `meta.nextCursor` until the end and returns every item. */
export async function collectPages<T = any>(client: Api, path: string): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let pages = 0;
  let cursor: string | undefined;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const res = await client.get(cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
    items.push(...(res.body.data as T[]));
    cursor = res.body.meta.nextCursor;
    pages += 1;
  } while (cursor);
  return { items, pages };
}
