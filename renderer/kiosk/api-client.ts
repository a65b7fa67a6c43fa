import { createStoreClient, StoreApiError, StoreNetworkError } from '../../client/src/index.js';
import type { ListMeta } from '../../shared/api/common.js';
import type { Category } from '../../shared/api/categories.js';
import type { BlockedIdentity, IdentityLogCreate } from '../../shared/api/identity-logs.js';
import type { Order, OrderCreate } from '../../shared/api/orders.js';
import type { Product } from '../../shared/api/products.js';
import type { ReceiptPrintRequest, ReceiptPrintResult } from '../../shared/api/receipts.js';
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

/** The server answered with an error status (`status`); `message` is the API's own text. */
export const ApiError = StoreApiError;
export type ApiError = StoreApiError;

/** The request never got an answer (server stopped, connection dropped). */
export const NetworkError = StoreNetworkError;
export type NetworkError = StoreNetworkError;

export type ApiClient = ReturnType<typeof createApiClient>;

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Typed client of the local API. The key travels only in the Authorization header. */
export function createApiClient(config: Pick<KioskConfig, 'apiBaseUrl' | 'key'>) {
  // Sales have their own retry loop (checkout.ts) that tells the customer; one quiet retry covers a dropped connection.
  const api = createStoreClient({ baseUrl: config.apiBaseUrl, key: config.key, retries: 1, timeoutMs: 30_000 });
  const limit = 5000;

  return {
    store: async (id: string): Promise<Store> => (await api.get('/stores/{storeId}', { params: { path: { storeId: id } } })).data,
    stores: (): Promise<Store[]> => collect(api.items('/stores', { params: { query: { limit } } })),
    categories: (): Promise<Category[]> => collect(api.items('/categories', { params: { query: { limit } } })),
    suppliers: (): Promise<Supplier[]> => collect(api.items('/suppliers', { params: { query: { limit } } })),
    /** One page of the store's catalog, for the products shown on screen. */
    productPage: (store: string, cursor?: string): Promise<List<Product>> => api.get('/products', { params: { query: { store, showOnScreen: 'true', limit, cursor } } }),
    byBarcode: async (code: string): Promise<Product[]> => (await api.get('/products', { params: { query: { barcode: code } } })).data,
    search: async (q: string, store: string, limit: number, signal?: AbortSignal): Promise<Product[]> =>
      (await api.get('/products', { params: { query: { q, store, limit } }, signal: signal ?? null })).data,
    createOrder: async (order: OrderCreate): Promise<string> => (await api.post('/orders', { body: order })).id,
    order: async (id: string): Promise<Order> => (await api.get('/orders/{orderId}', { params: { path: { orderId: id } } })).data,
    /** Sends the stored order's receipt to a network receipt printer; the answer says whether it printed. */
    printReceipt: async (orderId: string, request: ReceiptPrintRequest): Promise<ReceiptPrintResult> =>
      (await api.post('/receipts/{orderId}/print', { params: { path: { orderId } }, body: request })).data,
    blockedIdentities: (): Promise<BlockedIdentity[]> => collect(api.items('/identity-logs/blocked', { params: { query: { limit } } })),
    recordIdentityCheck: (log: IdentityLogCreate): Promise<{ id: string }> => api.post('/identity-logs', { body: log }),
    sync: async (): Promise<SyncStatus> => (await api.get('/sync')).data,
  };
}
