import type { ListMeta } from '../../shared/api/common.js';
import type { Category } from '../../shared/api/categories.js';
import type { BlockedIdentity, IdentityLogCreate } from '../../shared/api/identity-logs.js';
import type { Order, OrderCreate } from '../../shared/api/orders.js';
import type { Product } from '../../shared/api/products.js';
import type { Store } from '../../shared/api/stores.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import type { KioskConfig } from '../../shared/kiosk-config.js';

/** `GET /sync` of a server that syncs with an upstream. */
export interface SyncStatus {
  configured: boolean;
  state: 'off' | 'idle' | 'pushing' | 'pulling' | 'offline' | 'refused';
  pending: number;
}

interface List<T> {
  data: T[];
  meta: ListMeta;
}

/** The server answered with an error status; `message` is the API's own text. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The request never got an answer (server stopped, connection dropped). */
export class NetworkError extends Error {}

export type ApiClient = ReturnType<typeof createApiClient>;

/** Typed client of the local API. The key travels only in the Authorization header. */
export function createApiClient(config: Pick<KioskConfig, 'apiBaseUrl' | 'key'>) {
  const base = config.apiBaseUrl.replace(/\/$/, '');

  async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { authorization: `Bearer ${config.key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(base + path, { method, headers, body: body === undefined ? null : JSON.stringify(body), signal: signal ?? null });
    } catch (err) {
      if (signal?.aborted) throw err;
      throw new NetworkError(err instanceof Error ? err.message : String(err));
    }
    let parsed: unknown;
    try {
      parsed = await res.json();
    } catch (err) {
      if (res.ok) throw new NetworkError(`unreadable answer: ${String(err)}`);
    }
    if (!res.ok) {
      const message = (parsed as { message?: unknown } | undefined)?.message;
      throw new ApiError(res.status, typeof message === 'string' ? message : `HTTP ${res.status}`);
    }
    return parsed as T;
  }

  async function all<T>(path: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const sep = path.includes('?') ? '&' : '?';
      const page = await request<List<T>>('GET', cursor ? `${path}${sep}cursor=${encodeURIComponent(cursor)}` : path);
      items.push(...page.data);
      cursor = page.meta.nextCursor;
    } while (cursor);
    return items;
  }

  const query = (params: Record<string, string | number>) => new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();

  return {
    store: async (id: string) => (await request<{ data: Store }>('GET', `/stores/${encodeURIComponent(id)}`)).data,
    stores: () => all<Store>('/stores?limit=5000'),
    categories: () => all<Category>('/categories?limit=5000'),
    suppliers: () => all<Supplier>('/suppliers?limit=5000'),
    /** One page of the store's catalog, for the products shown on screen. */
    productPage: (store: string, cursor?: string) =>
      request<List<Product>>('GET', `/products?${query({ store, showOnScreen: 'true', limit: 5000, ...(cursor ? { cursor } : {}) })}`),
    byBarcode: async (code: string) => (await request<List<Product>>('GET', `/products?${query({ barcode: code })}`)).data,
    search: async (q: string, store: string, limit: number, signal?: AbortSignal) =>
      (await request<List<Product>>('GET', `/products?${query({ q, store, limit })}`, undefined, signal)).data,
    createOrder: async (order: OrderCreate) => (await request<{ id: string }>('POST', '/orders', order)).id,
    order: async (id: string) => (await request<{ data: Order }>('GET', `/orders/${encodeURIComponent(id)}`)).data,
    blockedIdentities: () => all<BlockedIdentity>('/identity-logs/blocked?limit=5000'),
    recordIdentityCheck: (log: IdentityLogCreate) => request<{ id: string }>('POST', '/identity-logs', log),
    sync: async () => (await request<{ data: SyncStatus }>('GET', '/sync')).data,
  };
}
