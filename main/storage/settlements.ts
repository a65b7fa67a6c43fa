import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** States of an order whose sale a settlement takes. */
export const SETTLED_PAYMENT_STATES = ['successful', 'partially-refunded', 'refunded'] as const;

export interface SettlementRecord {
  id: string;
  orgId: string;
  number: number;
  to: string;
  store: string | null;
  createdAt: string;
}

export interface SettlementAmountRecord {
  supplier: string;
  store: string;
  gross: number;
  marginPercent: number;
  margin: number;
  lines: number;
}

export interface SettlementLineRecord {
  orderId: string;
  line: number;
  kind: 'sale' | 'refund';
  store: string;
  supplier: string;
  productId: string;
  title: string;
  quantity: number;
  amount: number;
  orderDate: string;
  recordedAt: string;
}

/** An order a settlement may take lines of, as stored. */
export interface CandidateOrder {
  id: string;
  store: string;
  orderDate: string;
  recordedAt: string;
  products: string;
  /** Refunded cents confirmed before the settlement's `to`. */
  refunded: number;
  /** Refunded cents earlier settlements already accounted for. */
  accounted: number;
}

/** Where a page of unsettled orders ended: its last order's recorded time and rowid. */
export interface UnsettledCursor {
  recordedAt: string;
  row: number;
}

type Row = Record<string, unknown>;

const toSettlement = (row: Row): SettlementRecord => ({
  id: row.id as string,
  orgId: row.org_id as string,
  number: row.number as number,
  to: row.to_time as string,
  store: (row.store as string | null) ?? null,
  createdAt: row.created_at as string,
});

export function createSettlementStore(db: Db) {
  const refunded = 'coalesce(o.refunded, 0)';
  const states = SETTLED_PAYMENT_STATES.map((s) => `'${s}'`).join(', ');
  const cardRefunds = `FROM payments p JOIN refunds r ON r.payment_id = p.id WHERE p.order_id = o.id AND r.state = 'done' AND r.reversal = 0`;
  // A card refund counts from when the terminal confirmed it, so a later edit of the order moves
  // nothing; a refund this server has no record of (a store PC sent it with the order) counts from
  // the order's last change, which recorded it. Orders never refunded skip both look-ups.
  const refundedBefore = `CASE WHEN ${refunded} = 0 THEN 0
    WHEN EXISTS (SELECT 1 ${cardRefunds}) THEN min(${refunded}, (SELECT coalesce(sum(r.amount), 0) ${cardRefunds} AND r.decided_at < @to))
    WHEN o.lastupdate < @to THEN ${refunded} ELSE 0 END`;
  const unsettledFilter = `o.deleted = 0 AND o.payment_state IN (${states}) AND (@store IS NULL OR o.store = @store)
        AND NOT EXISTS (SELECT 1 FROM settled_orders s WHERE s.order_id = o.id)`;
  // Pages in the order of orders_org_recorded (recorded time, then rowid): each page starts where the last ended in the index.
  const unsettledPage = db.prepare<Row, Row>(
    `SELECT o.rowid AS row, o.id, o.store, o.order_date, o.createdate, o.products, ${refundedBefore} AS refunded, 0 AS accounted FROM orders o
      WHERE o.org_id = @orgId AND o.createdate < @to AND o.createdate >= @afterTime AND (o.createdate > @afterTime OR o.rowid > @afterRow)
        AND ${unsettledFilter}
      ORDER BY o.createdate, o.rowid LIMIT @limit`,
  );
  const hasSupplierLine = `EXISTS (SELECT 1 FROM json_each(o.products) l WHERE json_type(l.value, '$.supplier') = 'text' AND json_extract(l.value, '$.supplier') <> '')`;
  // Through orders_refunded: only orders with a refund are looked at, whenever their refund was confirmed.
  const refundedSinceFilter = `o.org_id = @orgId AND o.refunded > 0 AND s.org_id = @orgId AND (${refundedBefore}) > s.refunded AND (@store IS NULL OR o.store = @store)`;
  const refundedSince = db.prepare<Row, Row>(
    `SELECT o.id, o.store, o.order_date, o.createdate, o.products, ${refundedBefore} AS refunded, s.refunded AS accounted
       FROM orders o JOIN settled_orders s ON s.order_id = o.id
      WHERE ${refundedSinceFilter}`,
  );
  const anythingToSettle = db.prepare<Row, number>(
    `SELECT EXISTS (SELECT 1 FROM orders o WHERE o.org_id = @orgId AND o.createdate < @to AND ${unsettledFilter} AND ${hasSupplierLine})
         OR EXISTS (SELECT 1 FROM orders o JOIN settled_orders s ON s.order_id = o.id WHERE ${refundedSinceFilter} AND ${hasSupplierLine})`,
  ).pluck();
  // Below every number in use: unique under UNIQUE (org_id, number), and never one a finished settlement could get.
  const insertUnfinished = db.prepare(
    `INSERT INTO settlements (id, org_id, number, to_time, store, created_at, unfinished)
     VALUES (@id, @orgId, (SELECT min(0, coalesce(min(number), 0)) - 1 FROM settlements WHERE org_id = @orgId), @to, @store, @createdAt, 1)`,
  );
  const finish = db.prepare<[string, string, string], number>(
    'UPDATE settlements SET number = (SELECT coalesce(max(number), 0) + 1 FROM settlements WHERE org_id = ? AND unfinished = 0), unfinished = 0 WHERE id = ? AND org_id = ? AND unfinished = 1 RETURNING number',
  ).pluck();
  const insertAmount = db.prepare(
    `INSERT INTO settlement_amounts (settlement_id, supplier, store, gross, margin_percent, margin, lines)
     VALUES (@settlementId, @supplier, @store, @gross, @marginPercent, @margin, @lines)`,
  );
  const insertLine = db.prepare(
    `INSERT INTO settlement_lines (settlement_id, order_id, line, kind, store, supplier, product_id, title, quantity, amount, order_date, recorded_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A plain INSERT: an order taken twice fails the transaction instead of being settled again.
  const takeOrder = db.prepare('INSERT INTO settled_orders (order_id, org_id, refunded, settlement_id) VALUES (?, ?, ?, ?)');
  const accountRefund = db.prepare('UPDATE settled_orders SET refunded = ? WHERE order_id = ? AND refunded < ?');
  const list = db.prepare<[string], Row>('SELECT * FROM settlements WHERE org_id = ? AND unfinished = 0 ORDER BY number DESC');
  const byId = db.prepare<[string, string], Row>('SELECT * FROM settlements WHERE id = ? AND org_id = ? AND unfinished = 0');
  const amounts = db.prepare<[string], Row>('SELECT * FROM settlement_amounts WHERE settlement_id = ? ORDER BY supplier, store');
  const linesOf = db.prepare<[string, string], Row>(
    'SELECT * FROM settlement_lines WHERE settlement_id = ? AND supplier = ? ORDER BY order_date, order_id, line, kind DESC',
  );

  const toCandidate = (row: Row): CandidateOrder => ({
    id: row.id as string,
    store: row.store as string,
    orderDate: row.order_date as string,
    recordedAt: row.createdate as string,
    products: row.products as string,
    refunded: row.refunded as number,
    accounted: row.accounted as number,
  });

  return {
    /**
     * A page of the orders recorded before `to` that no settlement took, in
     * the order they were recorded, after `after` (the last of the previous
     * page; undefined for the first).
     */
    unsettledPage(orgId: string, to: string, store: string | null, after: UnsettledCursor | undefined, limit: number): { orders: CandidateOrder[]; last: UnsettledCursor | undefined } {
      const rows = unsettledPage.all({ orgId, to, store, afterTime: after?.recordedAt ?? '', afterRow: after?.row ?? -1, limit });
      const lastRow = rows.at(-1);
      return { orders: rows.map(toCandidate), last: lastRow ? { recordedAt: lastRow.createdate as string, row: lastRow.row as number } : undefined };
    },
    /** Whether a settlement up to `to` would take any line: an unsettled sale or a newer refund of an order with a supplier's line. */
    anythingToSettle(orgId: string, to: string, store: string | null): boolean {
      return anythingToSettle.get({ orgId, to, store }) === 1;
    },
    /** Settled orders whose refunds recorded before `to` grew since. */
    refundedSince(orgId: string, to: string, store: string | null): CandidateOrder[] {
      return refundedSince.all({ orgId, to, store }).map(toCandidate);
    },
    /** A settlement whose parts are about to be written: in no list and no answer until `finish`. */
    insertUnfinished(settlement: Omit<SettlementRecord, 'number'>): void {
      insertUnfinished.run(settlement);
    },
    /** The unfinished settlement becomes one: it gets the organization's next number, which it returns. */
    finish(orgId: string, id: string): number {
      const number = finish.get(orgId, id, orgId);
      if (number === undefined) throw new Error(`settlement ${id} is not an unfinished settlement of this organization`);
      return number;
    },
    insertAmount(settlementId: string, amount: SettlementAmountRecord): void {
      insertAmount.run({ settlementId, ...amount });
    },
    insertLine(settlementId: string, l: SettlementLineRecord): void {
      insertLine.run(settlementId, l.orderId, l.line, l.kind, l.store, l.supplier, l.productId, l.title, l.quantity, l.amount, l.orderDate, l.recordedAt);
    },
    /** The order's sale is taken by the settlement, with the refunded cents accounted in it. */
    takeOrder(settlementId: string, orderId: string, orgId: string, refunded: number): void {
      takeOrder.run(orderId, orgId, refunded, settlementId);
    },
    /** A taken order's refunds are accounted up to `refunded`. */
    accountRefund(orderId: string, refunded: number): void {
      accountRefund.run(refunded, orderId, refunded);
    },
    list(orgId: string): SettlementRecord[] {
      return list.all(orgId).map(toSettlement);
    },
    get(orgId: string, id: string): SettlementRecord | undefined {
      const row = byId.get(id, orgId);
      return row ? toSettlement(row) : undefined;
    },
    amounts(settlementId: string): SettlementAmountRecord[] {
      return amounts.all(settlementId).map((row) => ({
        supplier: row.supplier as string,
        store: row.store as string,
        gross: row.gross as number,
        marginPercent: row.margin_percent as number,
        margin: row.margin as number,
        lines: row.lines as number,
      }));
    },
    lines(settlementId: string, supplier: string): SettlementLineRecord[] {
      return linesOf.all(settlementId, supplier).map((row) => ({
        orderId: row.order_id as string,
        line: row.line as number,
        kind: row.kind as 'sale' | 'refund',
        store: row.store as string,
        supplier: row.supplier as string,
        productId: row.product_id as string,
        title: row.title as string,
        quantity: row.quantity as number,
        amount: row.amount as number,
        orderDate: row.order_date as string,
        recordedAt: row.recorded_at as string,
      }));
    },
  };
}

export type SettlementStore = ReturnType<typeof createSettlementStore>;

/** Rows an unfinished settlement's drop deletes per statement: a step of a few milliseconds. */
const DROP_ROWS = 2_000;

/**
 * Steps that drop an unfinished settlement and give back the orders it
 * took, a few thousand rows a step; the last step deletes the settlement
 * itself. Run them in one transaction or several: a drop cut off midway is
 * finished by the next.
 */
export function* droppingUnfinished(db: Db, settlementId: string): Generator<void, void> {
  const lines = db.prepare('DELETE FROM settlement_lines WHERE rowid IN (SELECT rowid FROM settlement_lines WHERE settlement_id = ? LIMIT ?)');
  const orders = db.prepare('DELETE FROM settled_orders WHERE order_id IN (SELECT order_id FROM settled_orders WHERE settlement_id = ? LIMIT ?)');
  while (lines.run(settlementId, DROP_ROWS).changes > 0) yield;
  while (orders.run(settlementId, DROP_ROWS).changes > 0) yield;
  db.prepare('DELETE FROM settlement_amounts WHERE settlement_id = ?').run(settlementId);
  db.prepare('DELETE FROM settlements WHERE id = ? AND unfinished = 1').run(settlementId);
}

/**
 * Drops the settlements whose parts were still being written when the last
 * server stopped, and gives back the orders they took; returns how many.
 * For the server's start and a restore, which hold the data folder: only a
 * server writes a settlement in parts.
 */
export function dropUnfinishedSettlements(db: Db): number {
  const ids = db.prepare<[], string>('SELECT id FROM settlements WHERE unfinished = 1').pluck().all();
  for (const id of ids) {
    immediateTransaction(db, () => {
      for (const step of droppingUnfinished(db, id)) void step;
    });
  }
  return ids.length;
}
