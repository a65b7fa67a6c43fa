import type { OrderStore } from '../storage/orders.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { PaymentRecord } from '../storage/payments.js';

/**
 * The order a card refund touched takes its payment state and the cents given
 * back, queued for the upstream like any change of it. Runs inside the
 * transaction that records the refund.
 */
export function refundOrder(deps: { orders: OrderStore; outbox: OutboxStore }, p: PaymentRecord, refunded: number, at: string): void {
  if (p.orderId === null) return;
  const order = deps.orders.get(p.orgId, p.orderId);
  if (!order) return;
  const fields = { paymentState: refunded >= p.amount ? 'refunded' : 'partially-refunded', refunded };
  deps.orders.update(p.orgId, { ...order, ...fields }, at);
  deps.outbox.append({ orgId: p.orgId, resource: 'order', resourceId: order.id, operation: 'update', body: fields, createdAt: at });
}
