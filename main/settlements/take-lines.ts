import type { OrderLine } from '../../shared/api/orders.js';
import { spreadRefund } from '../rules/settlement-amounts.js';
import type { CandidateOrder, SettlementLineRecord } from '../storage/settlements.js';

const supplierLines = (order: CandidateOrder) =>
  (JSON.parse(order.products) as OrderLine[]).map((line, index) => ({ line, index })).filter(({ line }) => typeof line.supplier === 'string' && line.supplier !== '');

const lineRecord = (order: CandidateOrder, line: OrderLine, index: number, kind: 'sale' | 'refund', quantity: number, amount: number): SettlementLineRecord => ({
  orderId: order.id,
  line: index,
  kind,
  store: order.store,
  supplier: line.supplier!,
  productId: line.productId,
  title: line.title,
  quantity,
  amount,
  orderDate: order.orderDate,
  recordedAt: order.recordedAt,
});

/** An unsettled order's lines with a supplier: each its price less its share of the refunds recorded so far. */
export function saleLines(order: CandidateOrder): SettlementLineRecord[] {
  const lines = supplierLines(order);
  const shares = spreadRefund(order.refunded, lines.map(({ line }) => line.price));
  return lines.map(({ line, index }, i) => lineRecord(order, line, index, 'sale', line.quantity, line.price - shares[i]!));
}

/** A settled order's refunds since its last settlement, as negative amounts of the lines they fall on. */
export function refundLines(order: CandidateOrder): SettlementLineRecord[] {
  const lines = supplierLines(order);
  const prices = lines.map(({ line }) => line.price);
  const now = spreadRefund(order.refunded, prices);
  const before = spreadRefund(order.accounted, prices);
  return lines
    .map(({ line, index }, i) => lineRecord(order, line, index, 'refund', 0, before[i]! - now[i]!))
    .filter((record) => record.amount !== 0);
}
