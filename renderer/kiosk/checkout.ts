import type { OrderCreate } from '../../shared/api/orders.js';
import { NetworkError, type ApiClient } from './api-client.js';

/** Pauses between attempts to record a sale, in milliseconds; the last one repeats. */
const RETRY_DELAYS_MS = [300, 1000, 2000, 5000];

/** The till's own order number, made when checkout starts: every attempt to record this sale sends it. */
export function newOrderId(): string {
  return crypto.randomUUID();
}

/**
 * Records a paid sale. A network error leaves it open whether the server
 * stored the order, so the same body (same `orderId`) is sent again until an
 * answer arrives: the server returns the first order's id and creates nothing
 * twice. An answer with an error status is final and is thrown.
 */
export async function recordSale(api: ApiClient, order: OrderCreate & { orderId: string }, onRetry: (attempt: number) => void): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.createOrder(order);
    } catch (err) {
      if (!(err instanceof NetworkError)) throw err;
      onRetry(attempt);
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length) - 1] as number;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
