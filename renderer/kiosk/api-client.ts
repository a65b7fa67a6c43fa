import { createStoreClient, StoreApiError, StoreNetworkError } from '../../client/src/index.js';
import type { ListMeta } from '../../shared/api/common.js';
import type { Category } from '../../shared/api/categories.js';
import type { IdentityLogCreate, IdentityVerdict, IdentityVerdictRequest } from '../../shared/api/identity-logs.js';
import type { CurrentKey } from '../../shared/api/keys.js';
import type { Order, OrderCreate } from '../../shared/api/orders.js';
import type { Payment, PaymentCreate } from '../../shared/api/payments.js';
import type { Product } from '../../shared/api/products.js';
import type { PrinterStatus } from '../../shared/api/printers.js';
import type { ReceiptPrintRequest, ReceiptPrintResult } from '../../shared/api/receipts.js';
import type { Store } from '../../shared/api/stores.js';
import type { Supplier } from '../../shared/api/suppliers.js';
import type { Terminal, TerminalCheck } from '../../shared/api/terminals.js';

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

/** Longest wait for one attempt's answer, in milliseconds; a local server answers in a few. */
const ATTEMPT_TIMEOUT_MS = 10_000;
/**
 * Longest wait for a print: the server may take 3 s to reach the printer, 0.5 s
 * for its paper status and 10 s to send (main/receipts/printer-socket.ts).
 */
const PRINT_TIMEOUT_MS = 20_000;
/** Longest wait for a whole call, its quiet retry included. */
const CALL_DEADLINE_MS = 25_000;
/** Longest wait for a whole list of every page (the screen's products, categories, suppliers). */
const LIST_DEADLINE_MS = 120_000;

/**
 * Runs one call of the kiosk under a deadline of its own, on top of the
 * client's timeout per attempt: no call of the kiosk waits forever. A call
 * past its deadline fails as a NetworkError, like one that got no answer;
 * a call the kiosk itself gave up (`caller`, a newer search) keeps its abort.
 */
async function within<T>(ms: number, caller: AbortSignal | undefined, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = AbortSignal.timeout(ms);
  try {
    return await call(caller ? AbortSignal.any([caller, deadline]) : deadline);
  } catch (err) {
    if (deadline.aborted && !caller?.aborted) throw new NetworkError(`no answer within ${ms} ms`, { cause: err });
    throw err;
  }
}

/** Typed client of the local API. The key travels only in the Authorization header. */
export function createApiClient(config: { apiBaseUrl: string; key?: string | undefined }) {
  // Sales have their own retry loop (checkout.ts) that tells the customer; one quiet retry covers a dropped connection.
  const api = createStoreClient({ baseUrl: config.apiBaseUrl, key: config.key, retries: 1, timeoutMs: ATTEMPT_TIMEOUT_MS });
  // A print is answered once the printer has the receipt: one attempt, with the printer's own time to answer.
  const printing = createStoreClient({ baseUrl: config.apiBaseUrl, key: config.key, retries: 0, timeoutMs: PRINT_TIMEOUT_MS });
  const limit = 5000;
  const call = <T>(run: (signal: AbortSignal) => Promise<T>, caller?: AbortSignal) => within(CALL_DEADLINE_MS, caller, run);
  const list = <T>(run: (signal: AbortSignal) => AsyncIterable<T>) => within(LIST_DEADLINE_MS, undefined, (signal) => collect(run(signal)));

  return {
    store: (id: string): Promise<Store> => call(async (signal) => (await api.get('/stores/{storeId}', { params: { path: { storeId: id } }, signal })).data),
    stores: (): Promise<Store[]> => list((signal) => api.items('/stores', { params: { query: { limit } }, signal })),
    categories: (): Promise<Category[]> => list((signal) => api.items('/categories', { params: { query: { limit } }, signal })),
    suppliers: (): Promise<Supplier[]> => list((signal) => api.items('/suppliers', { params: { query: { limit } }, signal })),
    /** One page of the store's catalog, for the products shown on screen. */
    productPage: (store: string, cursor?: string): Promise<List<Product>> =>
      within(LIST_DEADLINE_MS, undefined, (signal) => api.get('/products', { params: { query: { store, showOnScreen: 'true', limit, cursor } }, signal })),
    byBarcode: (code: string): Promise<Product[]> => call(async (signal) => (await api.get('/products', { params: { query: { barcode: code } }, signal })).data),
    search: (q: string, store: string, limit: number, caller?: AbortSignal): Promise<Product[]> =>
      call(async (signal) => (await api.get('/products', { params: { query: { q, store, limit } }, signal })).data, caller),
    createOrder: (order: OrderCreate): Promise<string> => call(async (signal) => (await api.post('/orders', { body: order, signal })).id),
    order: (id: string): Promise<Order> => call(async (signal) => (await api.get('/orders/{orderId}', { params: { path: { orderId: id } }, signal })).data),
    /** Sends the stored order's receipt to a registered network receipt printer; the answer says whether it printed. */
    printReceipt: (orderId: string, request: ReceiptPrintRequest): Promise<ReceiptPrintResult> =>
      call(async (signal) => (await printing.post('/receipts/{orderId}/print', { params: { path: { orderId } }, body: request, signal })).data),
    /** Asks the registered printer for its paper status, printing nothing; the server remembers it for the staff page. */
    checkPrinter: (printerId: string): Promise<PrinterStatus> =>
      call(async (signal) => (await printing.post('/printers/{printerId}/check', { params: { path: { printerId } }, signal })).data),
    /** The registered receipt printers the key may see. */
    printers: (): Promise<PrinterStatus[]> => call(async (signal) => (await api.get('/printers', { signal })).data),
    /** The key the kiosk holds: its kind and the store it is bound to. */
    currentKey: (): Promise<CurrentKey> => call(async (signal) => (await api.get('/keys/current', { signal })).data),
    /** Whether the server's blocked list holds the identity; the list itself stays on the server. */
    identityVerdict: (identity: IdentityVerdictRequest): Promise<IdentityVerdict> =>
      call(async (signal) => (await api.post('/identity-logs/verdict', { body: identity, signal })).data),
    recordIdentityCheck: (log: IdentityLogCreate): Promise<{ id: string }> => call((signal) => api.post('/identity-logs', { body: log, signal })),
    /** The store's card terminals. */
    terminals: (): Promise<Terminal[]> => call(async (signal) => (await api.get('/terminals', { signal })).data),
    /** Whether the server reaches the terminal now; nothing is charged. */
    checkTerminal: (id: string): Promise<TerminalCheck> =>
      call(async (signal) => (await api.post('/terminals/{terminalId}/check', { params: { path: { terminalId: id } }, signal })).data),
    /** Starts a card payment at the store's terminal; the terminal decides later. */
    startPayment: (body: PaymentCreate): Promise<Payment> => call(async (signal) => (await api.post('/payments', { body, signal })).data),
    payment: (id: string): Promise<Payment> => call(async (signal) => (await api.get('/payments/{paymentId}', { params: { path: { paymentId: id } }, signal })).data),
    /** Every payment of a sale, by its order number. */
    paymentsOf: (reference: string): Promise<Payment[]> => call(async (signal) => (await api.get('/payments', { params: { query: { reference } }, signal })).data),
    /** Asks the terminal to abort; its answer still decides how the payment ends. */
    cancelPayment: (id: string): Promise<Payment> =>
      call(async (signal) => (await api.post('/payments/{paymentId}/cancel', { params: { path: { paymentId: id } }, signal })).data),
    sync: (): Promise<SyncStatus> => call(async (signal) => (await api.get('/sync', { signal })).data),
  };
}
