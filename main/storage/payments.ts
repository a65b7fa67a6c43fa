import type { PaymentReason, PaymentState } from '../../shared/api/payments.js';
import type { PoiTransaction } from '../payments/terminal-protocol.js';
import type { BrandTotal } from '../rules/card-reconciliation.js';
import type { Db } from './database.js';

/** A payment attempt as stored. */
export interface PaymentRecord {
  id: string;
  orgId: string;
  store: string;
  terminal: string;
  reference: string;
  /** The attempt's own transaction reference at the terminal (nexo ServiceID). */
  serviceId: string;
  /** Who the server was towards the terminal when it sent the attempt (nexo SaleID): its status is asked under that name. */
  saleId: string;
  amount: number;
  currency: string;
  state: PaymentState;
  brand: string | null;
  maskedPan: string | null;
  /** The terminal's own id of the approved transaction, to reverse it. */
  poiTransaction: PoiTransaction | null;
  message: string | null;
  /** Why a declined or cancelled attempt ended so, as a code; null otherwise. */
  reason: PaymentReason | null;
  customerReceipt: string[];
  cashierReceipt: string[];
  /** Cents given back so far. */
  refunded: number;
  cancelAsked: boolean;
  /** The terminal approved another amount or currency than asked: never pays an order. */
  refused: boolean;
  /** What the terminal charged when it approved another amount or currency than asked; null otherwise. */
  charged: { amount: number; currency: string } | null;
  orderId: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  org_id: string;
  store: string;
  terminal: string;
  reference: string;
  service_id: string;
  sale_id: string;
  amount: number;
  currency: string;
  state: PaymentState;
  brand: string | null;
  masked_pan: string | null;
  poi_transaction: string | null;
  message: string | null;
  reason: PaymentReason | null;
  customer_receipt: string;
  cashier_receipt: string;
  refunded: number;
  cancel_asked: number;
  refused: number;
  charged_amount: number | null;
  charged_currency: string | null;
  order_id: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (row: Row): PaymentRecord => ({
  id: row.id,
  orgId: row.org_id,
  store: row.store,
  terminal: row.terminal,
  reference: row.reference,
  serviceId: row.service_id,
  saleId: row.sale_id,
  amount: row.amount,
  currency: row.currency,
  state: row.state,
  brand: row.brand,
  maskedPan: row.masked_pan,
  poiTransaction: row.poi_transaction === null ? null : (JSON.parse(row.poi_transaction) as PoiTransaction),
  message: row.message,
  reason: row.reason,
  customerReceipt: JSON.parse(row.customer_receipt) as string[],
  cashierReceipt: JSON.parse(row.cashier_receipt) as string[],
  refunded: row.refunded,
  cancelAsked: row.cancel_asked === 1,
  refused: row.refused === 1,
  charged: row.charged_amount === null ? null : { amount: row.charged_amount, currency: row.charged_currency ?? '' },
  orderId: row.order_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** What an answer of the terminal changes. */
export type PaymentOutcome = Pick<PaymentRecord, 'state' | 'brand' | 'maskedPan' | 'poiTransaction' | 'message' | 'reason' | 'customerReceipt' | 'cashierReceipt' | 'refunded' | 'refused' | 'charged'>;

export function createPaymentStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO payments (id, org_id, store, terminal, reference, service_id, sale_id, amount, currency, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = db.prepare<[string, string], Row>('SELECT * FROM payments WHERE id = ? AND org_id = ?');
  const byServiceId = db.prepare<[string], Row>('SELECT * FROM payments WHERE service_id = ?');
  const find = db.prepare<[string], Row>('SELECT * FROM payments WHERE id = ?');
  const unreversed = db.prepare<[], Row>("SELECT * FROM payments WHERE refused = 1 AND state = 'refunding' ORDER BY created_at");
  const byReference = db.prepare<[string, string], Row>('SELECT * FROM payments WHERE org_id = ? AND reference = ? ORDER BY created_at, id');
  const charging = db.prepare<[string, string, string], Row>(
    `SELECT * FROM payments WHERE org_id = ? AND store = ? AND reference = ?
       AND state IN ('pending', 'unknown', 'approved', 'refunding', 'refunded', 'partially-refunded') AND NOT (refused = 1 AND state = 'refunded')
     ORDER BY created_at LIMIT 1`,
  );
  const setState = db.prepare<[string, string, string]>('UPDATE payments SET state = ?, updated_at = ? WHERE id = ?');
  const brandTotals = db.prepare<[string, string, string, string], BrandTotal>(
    `SELECT brand, COUNT(*) AS payments, SUM(amount) AS total FROM payments
     WHERE org_id = ? AND store = ? AND created_at >= ? AND created_at < ? AND state IN ('approved', 'refunding', 'refunded', 'partially-refunded') AND refused = 0
     GROUP BY brand ORDER BY brand`,
  );
  const brandRefunds = db.prepare<[string, string, string, string], { brand: string | null; total: number }>(
    `SELECT p.brand, SUM(r.amount) AS total FROM refunds r JOIN payments p ON p.id = r.payment_id
     WHERE r.org_id = ? AND p.store = ? AND r.decided_at >= ? AND r.decided_at < ? AND r.state = 'done' AND p.refused = 0
     GROUP BY p.brand ORDER BY p.brand`,
  );
  const withoutSale = db.prepare<[string, string, string, string], Row>(
    `SELECT * FROM payments WHERE org_id = ? AND store = ? AND created_at >= ? AND created_at < ?
       AND ((state = 'approved' AND refused = 0 AND order_id IS NULL) OR (refused = 1 AND state = 'refunding'))
     ORDER BY created_at, id`,
  );
  const byOrder = db.prepare<[string, string], Row>('SELECT * FROM payments WHERE org_id = ? AND order_id = ?');
  const since = db.prepare<[string, string], Row>('SELECT * FROM payments WHERE org_id = ? AND created_at >= ? ORDER BY created_at DESC, id');
  // A refused approval still to be reversed is money taken without a sale, like an approval whose sale never came.
  const unrecorded = db.prepare<[string], Row>(
    "SELECT * FROM payments WHERE org_id = ? AND order_id IS NULL AND (state = 'approved' OR (refused = 1 AND state = 'refunding')) ORDER BY created_at, id",
  );
  const open = db.prepare<[], Row>("SELECT * FROM payments WHERE state IN ('pending', 'unknown') ORDER BY created_at");
  const update = db.prepare(
    `UPDATE payments SET state = ?, brand = ?, masked_pan = ?, poi_transaction = ?, message = ?, reason = ?, customer_receipt = ?, cashier_receipt = ?, refunded = ?, refused = ?, charged_amount = ?, charged_currency = ?, updated_at = ?
     WHERE id = ?`,
  );
  const markLost = db.prepare<[string, string]>("UPDATE payments SET state = 'unknown', updated_at = ? WHERE id = ? AND state = 'pending'");
  const askCancel = db.prepare<[string, string]>('UPDATE payments SET cancel_asked = 1, updated_at = ? WHERE id = ?');
  const claim = db.prepare<[string, string]>('UPDATE payments SET order_id = ? WHERE id = ? AND order_id IS NULL');

  return {
    insert(p: Pick<PaymentRecord, 'id' | 'orgId' | 'store' | 'terminal' | 'reference' | 'serviceId' | 'saleId' | 'amount' | 'currency' | 'createdAt'>): void {
      insert.run(p.id, p.orgId, p.store, p.terminal, p.reference, p.serviceId, p.saleId, p.amount, p.currency, 'pending', p.createdAt, p.createdAt);
    },
    get(orgId: string, id: string): PaymentRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? fromRow(row) : undefined;
    },
    /** A payment of any organization, for the work that follows it. */
    find(id: string): PaymentRecord | undefined {
      const row = find.get(id);
      return row ? fromRow(row) : undefined;
    },
    /** Refused approvals of every organization whose reversal the terminal has not confirmed yet. */
    unreversed(): PaymentRecord[] {
      return unreversed.all().map(fromRow);
    },
    byServiceId(serviceId: string): PaymentRecord | undefined {
      const row = byServiceId.get(serviceId);
      return row ? fromRow(row) : undefined;
    },
    byReference(orgId: string, reference: string): PaymentRecord[] {
      return byReference.all(orgId, reference).map(fromRow);
    },
    /** The sale's payment that charged, may still charge or was refunded: a second charge of the sale is refused while it exists. */
    charging(orgId: string, store: string, reference: string): PaymentRecord | undefined {
      const row = charging.get(orgId, store, reference);
      return row ? fromRow(row) : undefined;
    },
    setState(id: string, state: PaymentState, at: string): void {
      setState.run(state, at, id);
    },
    /** A store's approved card payments started in [start, end) per brand: how many, and their amount. */
    brandTotals(orgId: string, store: string, start: string, end: string): BrandTotal[] {
      return brandTotals.all(orgId, store, start, end).map((t) => ({ ...t, brand: t.brand ?? 'unknown' }));
    },
    /** What a store's card refunds confirmed in [start, end) gave back, per brand of the payment they refunded. */
    brandRefunds(orgId: string, store: string, start: string, end: string): { brand: string; total: number }[] {
      return brandRefunds.all(orgId, store, start, end).map((t) => ({ brand: t.brand ?? 'unknown', total: t.total }));
    },
    /** A store's payments started in [start, end) that took money no sale accounts for: approved without an order, or refused and not yet reversed. */
    withoutSale(orgId: string, store: string, start: string, end: string): PaymentRecord[] {
      return withoutSale.all(orgId, store, start, end).map(fromRow);
    },
    /** The payment that paid an order, if a card paid it. */
    byOrder(orgId: string, orderId: string): PaymentRecord | undefined {
      const row = byOrder.get(orgId, orderId);
      return row ? fromRow(row) : undefined;
    },
    /** Started at or after `at`, newest first. */
    since(orgId: string, at: string): PaymentRecord[] {
      return since.all(orgId, at).map(fromRow);
    },
    /** Approved payments no order names, and refused approvals not yet reversed, oldest first. */
    unrecorded(orgId: string): PaymentRecord[] {
      return unrecorded.all(orgId).map(fromRow);
    },
    /** Every attempt of every organization that is not settled yet, oldest first. */
    open(): PaymentRecord[] {
      return open.all().map(fromRow);
    },
    settle(id: string, o: PaymentOutcome, at: string): void {
      update.run(o.state, o.brand, o.maskedPan, o.poiTransaction === null ? null : JSON.stringify(o.poiTransaction), o.message, o.reason, JSON.stringify(o.customerReceipt), JSON.stringify(o.cashierReceipt), o.refunded, o.refused ? 1 : 0, o.charged?.amount ?? null, o.charged?.currency ?? null, at, id);
    },
    /** The answer to a sent request was lost: the terminal is asked until it tells. */
    markLost(id: string, at: string): void {
      markLost.run(at, id);
    },
    askCancel(id: string, at: string): void {
      askCancel.run(at, id);
    },
    /** Ties the payment to an order; false when another order has it already. */
    claim(id: string, orderId: string): boolean {
      return claim.run(orderId, id).changes > 0;
    },
  };
}

export type PaymentStore = ReturnType<typeof createPaymentStore>;
