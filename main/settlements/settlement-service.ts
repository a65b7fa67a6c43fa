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
import type { SettlementAmountRecord, SettlementLineRecord, SettlementRecord, SettlementStore, UnsettledCursor } from '../storage/settlements.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { immediateTransaction } from '../storage/transactions.js';
import { bicProblem, ibanOf, ibanProblem } from './iban.js';
import { runInSlices } from './run-in-slices.js';
import { refundLines, saleLines } from './take-lines.js';

export interface SettlementDeps {
  db: Db;
  /** The server's group commit: a settlement is written a few milliseconds at a time in one held group. Without it (the CLI), in one go. */
  groups?: Pick<GroupCommit, 'hold' | 'afterCommit'> | undefined;
  clock: Clock;
  settlements: SettlementStore;
  payoutAccounts: PayoutAccountStore;
  stores: StoreStore;
  suppliers: SupplierStore;
}

/** Orders read, marked and written per step of a settlement: each step takes well under a millisecond. */
const STEP_ORDERS = 100;

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
   * A settlement's reads and writes, yielding after each small step (see
   * `runInSlices`). Each page of orders is written as it is read: a year's
   * half a million lines are never all held at once.
   */
  function* settling(orgId: string, toTime: string, store: string | null, now: Date): Generator<void, string> {
    const id = newId();
    const amounts = amountsOf(percentsOf(orgId));
    let lineCount = 0;
    const write = (lines: SettlementLineRecord[]) => {
      for (const line of lines) {
        amounts.add(line);
        settlements.insertLine(id, line);
      }
      lineCount += lines.length;
    };
    settlements.insert({ id, orgId, number: settlements.nextNumber(orgId), to: toTime, store, createdAt: now.toISOString() });
    // Before this settlement's own orders are marked settled: the refunds looked for are those of earlier settlements' orders.
    for (const order of settlements.refundedSince(orgId, toTime, store)) {
      write(refundLines(order));
      settlements.accountRefund(order.id, order.refunded);
    }
    yield;
    for (let after: UnsettledCursor | undefined, more = true; more; yield) {
      const page = settlements.unsettledPage(orgId, toTime, store, after, STEP_ORDERS);
      // Marked in key order within the page: the key's B-tree takes them a leaf at a time.
      for (const order of [...page.orders].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
        write(saleLines(order));
        settlements.takeOrder(order.id, orgId, order.refunded);
      }
      after = page.last;
      more = page.orders.length === STEP_ORDERS;
      if (lineCount > 0) crashPoint('settlement-half-written');
    }
    if (lineCount === 0) throw new Conflict(`Nothing to settle: no sale or refund with a supplier recorded before ${toTime} is left unsettled`);
    for (const amount of amounts.result()) settlements.insertAmount(id, amount);
    return id;
  }

  return {
    /**
     * Takes every line with a supplier that no settlement took, of the orders
     * recorded before `to`, and the refunds recorded since their settlement,
     * in one transaction: a settlement is there whole or not at all, and
     * `settled_orders`' key keeps each sale in one settlement. On the server
     * the transaction is written a few milliseconds at a time (see
     * run-in-slices.ts); resolves once it is on disk.
     */
    create(caller: Caller, body: SettlementCreate): Promise<string> {
      const now = clock.now();
      const to = new Date(body.to);
      if (to.getTime() > now.getTime()) return Promise.reject(new BadRequest(`to: ${body.to} is in the future; a settlement takes only sales already recorded`));
      const store = body.store ?? null;
      if (store !== null && !stores.get(caller.orgId, store)) return Promise.reject(new NotFound('Store', store));
      const toTime = to.toISOString();
      const settle = () => {
        // Checked in the turn the write begins: a settlement refused once its group is held would roll back the sales that joined it.
        if (!settlements.anythingToSettle(caller.orgId, toTime, store)) throw new Conflict(`Nothing to settle: no sale or refund with a supplier recorded before ${toTime} is left unsettled`);
        return runInSlices(db, deps.groups, () => settling(caller.orgId, toTime, store, now));
      };
      const settled = running.then(settle);
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
