import type { PayoutAccountBody, PayoutProblem, Settlement, SettlementCreate, SettlementSummary, SettlementSupplier } from '../../shared/api/settlements.js';
import { crashPoint } from '../system/crash-point.js';
import { newId } from '../rules/ids.js';
import { marginOf, marginPercentOf } from '../rules/settlement-amounts.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, Conflict, NotFound } from '../services/errors.js';
import type { Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import type { PayoutAccount, PayoutAccountStore } from '../storage/payout-accounts.js';
import { runInSlices, type SliceStep } from '../storage/run-in-slices.js';
import { droppingUnfinished, type SettlementAmountRecord, type SettlementLineRecord, type SettlementRecord, type SettlementStore, type UnsettledCursor } from '../storage/settlements.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { immediateTransaction } from '../storage/transactions.js';
import { bicProblem, ibanOf, ibanProblem } from './iban.js';
import { refundLines, saleLines } from './take-lines.js';

export interface SettlementDeps {
  db: Db;
  /** The server's group commit: a settlement is written a few milliseconds at a time, in parts of held groups. Without it (the CLI), in one transaction. */
  groups?: Pick<GroupCommit, 'hold' | 'afterCommit'> | undefined;
  clock: Clock;
  settlements: SettlementStore;
  payoutAccounts: PayoutAccountStore;
  stores: StoreStore;
  suppliers: SupplierStore;
}

/** Orders read, marked and written per step of a settlement: each step takes well under a millisecond. */
const STEP_ORDERS = 100;
/**
 * Orders taken per part of a settlement on the server: each part is its own
 * commit, and a commit's time grows with what it writes (a year in one
 * commit held every request for a tenth of a second); each part's end also
 * costs the settlement itself about 30 ms. See docs/performance.md.
 */
const PART_ORDERS = 3_000;

/** Amounts per supplier and store of a settlement's lines, added up line by line; each margin is rounded once, at the end. */
function amountsOf(percentOf: (supplier: string, store: string) => number) {
  const groups = new Map<string, SettlementAmountRecord>();
  return {
    add(line: SettlementLineRecord): void {
      const key = `${line.supplier}\u0000${line.store}`;
      let group = groups.get(key);
      if (!group) {
        group = { supplier: line.supplier, store: line.store, gross: 0, marginPercent: percentOf(line.supplier, line.store), margin: 0, lines: 0 };
        groups.set(key, group);
      }
      group.gross += line.amount;
      group.lines += 1;
    },
    result(): SettlementAmountRecord[] {
      return [...groups.values()].map((group) => ({ ...group, margin: marginOf(group.gross, group.marginPercent) }));
    },
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function createSettlementService(deps: SettlementDeps) {
  const { db, clock, settlements, payoutAccounts, stores, suppliers } = deps;
  /** Settlements of this process one after the other: two in one held group would take the same orders and roll each other back. */
  let running: Promise<unknown> = Promise.resolve();

  const mustGet = (orgId: string, id: string): SettlementRecord => {
    const settlement = settlements.get(orgId, id);
    if (!settlement) throw new NotFound('Settlement', id);
    return settlement;
  };

  const payoutProblemOf = (orgId: string, supplierId: string, payout: number): PayoutProblem => {
    const supplier = suppliers.get(orgId, supplierId);
    if (supplier?.payoutsEnabled !== true) return 'payouts-disabled';
    if (!supplier.iban || supplier.iban.trim() === '') return 'no-iban';
    if (ibanProblem(supplier.iban) !== null) return 'invalid-iban';
    if (payout <= 0) return 'nothing-to-pay';
    return null;
  };

  const supplierTotals = (orgId: string, amounts: SettlementAmountRecord[]): SettlementSupplier[] => {
    const bySupplier = new Map<string, SettlementAmountRecord[]>();
    for (const amount of amounts) bySupplier.set(amount.supplier, [...(bySupplier.get(amount.supplier) ?? []), amount]);
    return [...bySupplier].map(([supplier, parts]) => {
      const gross = sum(parts.map((p) => p.gross));
      const margin = sum(parts.map((p) => p.margin));
      const percents = new Set(parts.map((p) => p.marginPercent));
      const marginPercent = percents.size === 1 || gross === 0 ? parts[0]!.marginPercent : Math.round((margin / gross) * 10_000) / 100;
      const payout = gross - margin;
      return {
        supplier,
        name: suppliers.get(orgId, supplier)?.name ?? supplier,
        gross,
        marginPercent,
        margin,
        payout,
        lines: sum(parts.map((p) => p.lines)),
        payoutProblem: payoutProblemOf(orgId, supplier, payout),
      };
    }).sort((a, b) => a.name.localeCompare(b.name));
  };

  const summaryOf = (record: SettlementRecord, amounts: SettlementAmountRecord[]): SettlementSummary => {
    const gross = sum(amounts.map((a) => a.gross));
    const margin = sum(amounts.map((a) => a.margin));
    return { id: record.id, number: record.number, to: record.to, store: record.store, createdAt: record.createdAt, totals: { gross, margin, payout: gross - margin } };
  };

  const get = (caller: Caller, id: string): Settlement => {
    const record = mustGet(caller.orgId, id);
    const amounts = settlements.amounts(id);
    return { ...summaryOf(record, amounts), suppliers: supplierTotals(caller.orgId, amounts) };
  };

  const percentsOf = (orgId: string) => {
    const margins = new Map<string, number>();
    return (supplier: string, storeId: string): number => {
      const key = `${supplier}\u0000${storeId}`;
      let percent = margins.get(key);
      if (percent === undefined) {
        percent = marginPercentOf(suppliers.get(orgId, supplier)?.supplierMargin, stores.get(orgId, storeId)?.generalMargin);
        margins.set(key, percent);
      }
      return percent;
    };
  };

  /**
   * A settlement's reads and writes, yielding after each small step and
   * offering a commit after each part (see `runInSlices`). Each page of
   * orders is written as it is read: a year's half a million lines are never
   * all held at once. The settlement stays unfinished, seen by no one, until
   * its last part: that part takes the refunds since earlier settlements,
   * writes the amounts and gives it its number, so a settlement is whole or
   * dropped (`droppingUnfinished`), and its numbers run without gaps.
   */
  function* settling(id: string, orgId: string, toTime: string, store: string | null, now: Date): Generator<SliceStep, string | undefined> {
    const amounts = amountsOf(percentsOf(orgId));
    let lineCount = 0;
    const write = (lines: SettlementLineRecord[]) => {
      for (const line of lines) {
        amounts.add(line);
        settlements.insertLine(id, line);
      }
      lineCount += lines.length;
    };
    settlements.insertUnfinished({ id, orgId, to: toTime, store, createdAt: now.toISOString() });
    let inPart = 0;
    for (let after: UnsettledCursor | undefined, more = true; more; yield) {
      const page = settlements.unsettledPage(orgId, toTime, store, after, STEP_ORDERS);
      // Marked in key order within the page: the key's B-tree takes them a leaf at a time.
      for (const order of [...page.orders].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        write(saleLines(order));
        settlements.takeOrder(id, order.id, orgId, order.refunded);
      }
      after = page.last;
      more = page.orders.length === STEP_ORDERS;
      if (lineCount > 0) crashPoint('settlement-half-written');
      inPart += page.orders.length;
      if (inPart >= PART_ORDERS) {
        inPart = 0;
        yield 'commit';
      }
    }
    yield 'commit';
    crashPoint('settlement-part-committed');
    // Refunds in the last part: accounting them marks the earlier settlements' orders, which a dropped settlement could not give back.
    for (const order of settlements.refundedSince(orgId, toTime, store)) {
      write(refundLines(order));
      settlements.accountRefund(order.id, order.refunded);
    }
    if (lineCount === 0) {
      yield* droppingUnfinished(db, id);
      return undefined;
    }
    for (const amount of amounts.result()) settlements.insertAmount(id, amount);
    settlements.finish(orgId, id);
    return id;
  }

  /**
   * Writes a settlement; if it fails after a part was committed, drops what
   * it wrote (or leaves that to the next start). Nothing to settle is found
   * out before the write and in its last part, never by throwing inside a
   * held group: that would roll back the sales that joined it.
   */
  const settle = async (orgId: string, toTime: string, store: string | null, now: Date): Promise<string> => {
    const nothing = () => new Conflict(`Nothing to settle: no sale or refund with a supplier recorded before ${toTime} is left unsettled`);
    if (!settlements.anythingToSettle(orgId, toTime, store)) throw nothing();
    const id = newId();
    let settled: string | undefined;
    try {
      settled = await runInSlices(db, deps.groups, () => settling(id, orgId, toTime, store, now));
    } catch (err) {
      await runInSlices(db, deps.groups, () => droppingUnfinished(db, id)).catch(() => undefined);
      throw err;
    }
    if (settled === undefined) throw nothing();
    return settled;
  };

  return {
    /**
     * Takes every line with a supplier that no settlement took, of the orders
     * recorded before `to`, and the refunds recorded since their settlement.
     * `settled_orders`' key keeps each sale in one settlement. On the server
     * it is written a few milliseconds at a time in parts of a few thousand
     * orders (see `settling`); the CLI writes it in one transaction. Resolves
     * once it is on disk, whole.
     */
    create(caller: Caller, body: SettlementCreate): Promise<string> {
      const now = clock.now();
      const to = new Date(body.to);
      if (to.getTime() > now.getTime()) return Promise.reject(new BadRequest(`to: ${body.to} is in the future; a settlement takes only sales already recorded`));
      const store = body.store ?? null;
      if (store !== null && !stores.get(caller.orgId, store)) return Promise.reject(new NotFound('Store', store));
      const settled = running.then(() => settle(caller.orgId, to.toISOString(), store, now));
      running = settled.catch(() => undefined);
      return settled;
    },

    list(caller: Caller): SettlementSummary[] {
      return settlements.list(caller.orgId).map((record) => summaryOf(record, settlements.amounts(record.id)));
    },

    get,

    /** The settlement, its amounts per supplier and store, and the lines of one supplier. */
    supplierPart(caller: Caller, id: string, supplier: string) {
      const settlement = get(caller, id);
      const totals = settlement.suppliers.find((s) => s.supplier === supplier);
      if (!totals) throw new NotFound('Supplier of this settlement', supplier);
      const amounts = settlements.amounts(id).filter((a) => a.supplier === supplier);
      return { settlement, totals, amounts, lines: settlements.lines(id, supplier), record: suppliers.get(caller.orgId, supplier) };
    },

    putPayoutAccount(caller: Caller, body: PayoutAccountBody): void {
      const problem = ibanProblem(body.iban);
      if (problem !== null) throw new BadRequest(`iban: ${problem}`);
      if (body.bic !== undefined && bicProblem(body.bic) !== null) throw new BadRequest(`bic: ${bicProblem(body.bic)!}`);
      const account: PayoutAccount = { ...body, iban: ibanOf(body.iban), ...(body.bic === undefined ? {} : { bic: body.bic.replace(/\s+/g, '').toUpperCase() }) };
      immediateTransaction(db, () => payoutAccounts.put(caller.orgId, account, clock.now().toISOString()));
    },

    payoutAccount(caller: Caller): PayoutAccount {
      const account = payoutAccounts.get(caller.orgId);
      if (!account) throw new NotFound('Payout account of organization', caller.orgId);
      return account;
    },
  };
}

export type SettlementService = ReturnType<typeof createSettlementService>;
