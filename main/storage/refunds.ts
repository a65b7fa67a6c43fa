import type { Db } from './database.js';

/** `pending`: stored, on its way to the terminal; `unknown`: its answer was lost; `done`: given back; `failed`: nothing was given back. */
export type RefundState = 'pending' | 'unknown' | 'done' | 'failed';

/** One refund attempt of a payment, as stored. */
export interface RefundRecord {
  id: string;
  orgId: string;
  paymentId: string;
  /** The attempt's own transaction reference at the terminal (nexo ServiceID). */
  serviceId: string;
  amount: number;
  currency: string;
  /** The server's own reversal of an approval it refused, not a refund staff asked for. */
  reversal: boolean;
  state: RefundState;
  message: string | null;
  createdAt: string;
  updatedAt: string;
  /** When the terminal's answer, or the follow-up, told how it ended. */
  decidedAt: string | null;
}

interface Row {
  id: string;
  org_id: string;
  payment_id: string;
  service_id: string;
  amount: number;
  currency: string;
  reversal: number;
  state: RefundState;
  message: string | null;
  created_at: string;
  updated_at: string;
  decided_at: string | null;
}

const fromRow = (row: Row): RefundRecord => ({
  id: row.id,
  orgId: row.org_id,
  paymentId: row.payment_id,
  serviceId: row.service_id,
  amount: row.amount,
  currency: row.currency,
  reversal: row.reversal === 1,
  state: row.state,
  message: row.message,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  decidedAt: row.decided_at,
});

export function createRefundStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO refunds (id, org_id, payment_id, service_id, amount, currency, reversal, state, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  );
  const byServiceId = db.prepare<[string], Row>('SELECT * FROM refunds WHERE service_id = ?');
  const openOf = db.prepare<[string], Row>("SELECT * FROM refunds WHERE payment_id = ? AND state IN ('pending', 'unknown')");
  const open = db.prepare<[], Row>("SELECT * FROM refunds WHERE state IN ('pending', 'unknown') ORDER BY created_at");
  const decide = db.prepare<[string, string | null, string, string, string]>(
    "UPDATE refunds SET state = ?, message = ?, updated_at = ?, decided_at = ? WHERE id = ? AND state IN ('pending', 'unknown')",
  );
  const markLost = db.prepare<[string, string]>("UPDATE refunds SET state = 'unknown', updated_at = ? WHERE id = ? AND state = 'pending'");

  return {
    insert(r: Pick<RefundRecord, 'id' | 'orgId' | 'paymentId' | 'serviceId' | 'amount' | 'currency' | 'reversal' | 'createdAt'>): void {
      insert.run(r.id, r.orgId, r.paymentId, r.serviceId, r.amount, r.currency, r.reversal ? 1 : 0, r.createdAt, r.createdAt);
    },
    byServiceId(serviceId: string): RefundRecord | undefined {
      const row = byServiceId.get(serviceId);
      return row ? fromRow(row) : undefined;
    },
    /** The payment's refund still out at the terminal, if any. */
    openOf(paymentId: string): RefundRecord | undefined {
      const row = openOf.get(paymentId);
      return row ? fromRow(row) : undefined;
    },
    /** Every refund of every organization whose outcome is not known yet, oldest first. */
    open(): RefundRecord[] {
      return open.all().map(fromRow);
    },
    /** Sets the outcome once; false when another answer decided it first. */
    decide(id: string, state: 'done' | 'failed', message: string | null, at: string): boolean {
      return decide.run(state, message, at, at, id).changes > 0;
    },
    markLost(id: string, at: string): void {
      markLost.run(at, id);
    },
  };
}

export type RefundStore = ReturnType<typeof createRefundStore>;
