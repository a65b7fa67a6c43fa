import type { PayoutAccountBody, PayoutProblem, Settlement, SettlementCreate, SettlementSummary, SettlementSupplier } from '../../shared/api/settlements.js';
import { crashPoint } from '../system/crash-point.js';
import { newId } from '../rules/ids.js';
import { marginOf, marginPercentOf } from '../rules/settlement-amounts.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, Conflict, NotFound } from '../services/errors.js';
import type { Db } from '../storage/database.js';
import type { PayoutAccount, PayoutAccountStore } from '../storage/payout-accounts.js';
import type { SettlementAmountRecord, SettlementLineRecord, SettlementRecord, SettlementStore } from '../storage/settlements.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { immediateTransaction } from '../storage/transactions.js';
import { bicProblem, ibanOf, ibanProblem } from './iban.js';
import { refundLines, saleLines } from './take-lines.js';

export interface SettlementDeps {
  db: Db;
  clock: Clock;
  settlements: SettlementStore;
  payoutAccounts: PayoutAccountStore;
  stores: StoreStore;
  suppliers: SupplierStore;
}

/** Amounts per supplier and store of a settlement's lines, each margin rounded once. */
function amountsOf(lines: SettlementLineRecord[], percentOf: (supplier: string, store: string) => number): SettlementAmountRecord[] {
  const groups = new Map<string, SettlementAmountRecord>();
  for (const line of lines) {
    const key = `${line.supplier}\u0000${line.store}`;
    let group = groups.get(key);
    if (!group) {
      group = { supplier: line.supplier, store: line.store, gross: 0, marginPercent: percentOf(line.supplier, line.store), margin: 0, lines: 0 };
      groups.set(key, group);
    }
    group.gross += line.amount;
    group.lines += 1;
  }
  return [...groups.values()].map((group) => ({ ...group, margin: marginOf(group.gross, group.marginPercent) }));
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

export function createSettlementService(deps: SettlementDeps) {
  const { db, clock, settlements, payoutAccounts, stores, suppliers } = deps;

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

  return {
    /**
     * Takes every line with a supplier that no settlement took, of the orders
     * recorded before `to`, and the refunds recorded since their settlement,
     * in one transaction: a settlement is there whole or not at all, and
     * `settled_orders`' key keeps each sale in one settlement.
     */
    create(caller: Caller, body: SettlementCreate): string {
      const now = clock.now();
      const to = new Date(body.to);
      if (to.getTime() > now.getTime()) throw new BadRequest(`to: ${body.to} is in the future; a settlement takes only sales already recorded`);
      const store = body.store ?? null;
      if (store !== null && !stores.get(caller.orgId, store)) throw new NotFound('Store', store);
      const toTime = to.toISOString();
      const id = newId();
      const margins = new Map<string, number>();
      const percentOf = (supplier: string, storeId: string): number => {
        const key = `${supplier}\u0000${storeId}`;
        let percent = margins.get(key);
        if (percent === undefined) {
          percent = marginPercentOf(suppliers.get(caller.orgId, supplier)?.supplierMargin, stores.get(caller.orgId, storeId)?.generalMargin);
          margins.set(key, percent);
        }
        return percent;
      };
      immediateTransaction(db, () => {
        const lines: SettlementLineRecord[] = [];
        for (const order of settlements.unsettled(caller.orgId, toTime, store)) {
          lines.push(...saleLines(order));
          settlements.takeOrder(order.id, caller.orgId, order.refunded);
        }
        for (const order of settlements.refundedSince(caller.orgId, toTime, store)) {
          lines.push(...refundLines(order));
          settlements.accountRefund(order.id, order.refunded);
        }
        if (lines.length === 0) throw new Conflict(`Nothing to settle: no sale or refund with a supplier recorded before ${toTime} is left unsettled`);
        settlements.insert({ id, orgId: caller.orgId, number: settlements.nextNumber(caller.orgId), to: toTime, store, createdAt: now.toISOString() });
        for (const amount of amountsOf(lines, percentOf)) settlements.insertAmount(id, amount);
        // By supplier: the index of a settlement's lines by supplier grows at one place at a time.
        lines.sort((a, b) => (a.supplier < b.supplier ? -1 : a.supplier > b.supplier ? 1 : a.orderId < b.orderId ? -1 : a.orderId > b.orderId ? 1 : a.line - b.line));
        lines.forEach((line, i) => {
          if (i === Math.floor(lines.length / 2)) crashPoint('settlement-half-written');
          settlements.insertLine(id, line);
        });
      });
      return id;
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
