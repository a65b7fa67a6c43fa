import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { components, paths } from './api-types.js';
import { StoreApiError, type ApiErrorBody } from './errors.js';
import { followCursor, type Page } from './paging.js';
import { createTransport, newIdempotencyKey } from './transport.js';

export type { components, paths } from './api-types.js';
export { StoreApiError, StoreNetworkError, type ApiErrorBody } from './errors.js';
export type { Page } from './paging.js';

/** The API's named shapes, e.g. `Schema<'Product'>`, `Schema<'OrderCreate'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

export interface StoreClientOptions {
  /** Base URL of the API, with `/api/v1`, e.g. `http://127.0.0.1:8787/api/v1`. */
  baseUrl: string;
  /** Read or write key of the organization; sent as `Authorization: Bearer`. Not needed for `/health` and `/openapi.json`. */
  key?: string;
  /** Longest wait for one attempt's whole answer, in milliseconds. Default 10,000. */
  timeoutMs?: number;
  /** Further attempts of a GET or of a POST with an `Idempotency-Key` after a network error or a 503. Default 3. */
  retries?: number;
  /** Pause before the first further attempt, in milliseconds; it doubles with each attempt. Default 250. */
  retryDelayMs?: number;
  /** The fetch to send requests with; default the global one. */
  fetch?: (request: Request) => Promise<Response>;
}

type Paths = paths;
type Init<P extends keyof Paths, M extends HttpMethod> = MaybeOptionalInit<Paths[P], M>;
/** The call's options are optional exactly when nothing in them is required, as in openapi-fetch. */
type InitArgs<I> = RequiredKeysOf<I> extends never ? [(I & { [key: string]: unknown })?] : [I & { [key: string]: unknown }];
/** The body of the call's success answer. */
type Answer<P extends keyof Paths, M extends HttpMethod, I> = NonNullable<FetchResponse<Paths[P][M] & Record<string | number, unknown>, I, MediaType>['data']>;

type Call<M extends HttpMethod> = <P extends PathsWithMethod<Paths, M>, I extends Init<P, M>>(url: P, ...init: InitArgs<I>) => Promise<Answer<P, M, I>>;

/** GET endpoints that answer a page with `meta.nextCursor`. */
export type ListPath = {
  [P in PathsWithMethod<Paths, 'get'>]: Answer<P, 'get', Init<P, 'get'>> extends Page<unknown> ? P : never;
}[PathsWithMethod<Paths, 'get'>];
/** The item type of a list endpoint. */
export type ListItem<P extends ListPath> = Answer<P, 'get', Init<P, 'get'>> extends Page<infer T> ? T : never;

export interface StoreClient {
  /** Reads; answers the success body, throws `StoreApiError` for an error status and `StoreNetworkError` when no answer came. */
  get: Call<'get'>;
  /** Writes; every POST carries an `Idempotency-Key` (a new one per call unless given), kept on the call's retries. */
  post: Call<'post'>;
  /** Deletes; not retried, since nothing makes a repeated DELETE safe to tell apart (it may answer 404). */
  delete: Call<'delete'>;
  /** Every page of a list, following `meta.nextCursor`; `cursor` in the query starts further on. */
  pages<P extends ListPath>(url: P, ...init: InitArgs<Init<P, 'get'>>): AsyncGenerator<Answer<P, 'get', Init<P, 'get'>>, void, undefined>;
  /** Every item of a list across its pages. */
  items<P extends ListPath>(url: P, ...init: InitArgs<Init<P, 'get'>>): AsyncGenerator<ListItem<P>, void, undefined>;
  /** The openapi-fetch client underneath: answers `{ data, error, response }` instead of throwing for an error status. */
  api: Client<Paths>;
}

/** The options of a list call as the paging code handles them, whatever the endpoint. */
type ListInit = { params?: { query?: Record<string, unknown> } & Record<string, unknown> } & Record<string, unknown>;

/** A typed client of the Store Server API. */
export function createStoreClient(options: StoreClientOptions): StoreClient {
  const api = createClient<Paths>({
    baseUrl: options.baseUrl,
    headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
    fetch: createTransport({
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 3,
      retryDelayMs: options.retryDelayMs ?? 250,
      fetch: options.fetch ?? ((request) => fetch(request)),
    }),
  });
  api.use({
    onRequest({ request }) {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', newIdempotencyKey());
      return request;
    },
  });

  const answer = async (method: 'GET' | 'POST' | 'DELETE', url: string, init: unknown): Promise<never> => {
    const result = (await api.request(method.toLowerCase() as 'get', url as never, init as never)) as { data?: unknown; error?: unknown; response: Response };
    if (result.error !== undefined || !result.response.ok) throw new StoreApiError(result.response.status, result.error as ApiErrorBody | string | undefined, `${method} ${url}`);
    return result.data as never;
  };

  async function* pages(url: string, init?: ListInit) {
    const first = init?.params?.query?.cursor;
    yield* followCursor(
      (cursor) => answer('GET', url, { ...init, params: { ...init?.params, query: { ...init?.params?.query, cursor } } }) as Promise<Page<unknown>>,
      typeof first === 'string' ? first : undefined,
    );
  }

  return {
    get: (url, ...init) => answer('GET', url, init[0]),
    post: (url, ...init) => answer('POST', url, init[0]),
    delete: (url, ...init) => answer('DELETE', url, init[0]),
    pages: pages as StoreClient['pages'],
    items: async function* (url: string, init?: ListInit) {
      for await (const page of pages(url, init)) yield* page.data;
    } as StoreClient['items'],
    api,
  };
}
