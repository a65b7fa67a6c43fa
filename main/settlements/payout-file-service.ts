import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { Conflict } from '../services/errors.js';
import type { PayoutAccountStore } from '../storage/payout-accounts.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { payoutFile, type Creditor } from './payout-file.js';
import type { SettlementService } from './settlement-service.js';

/** `GET /settlements/{id}/payout-file`: the transfers of the suppliers that can be paid, from the payout account. */
export function createPayoutFiles(deps: { clock: Clock; settlements: SettlementService; payoutAccounts: PayoutAccountStore; suppliers: SupplierStore }) {
  return {
    payoutFileOf(caller: Caller, id: string): string {
      const settlement = deps.settlements.get(caller, id);
      const debtor = deps.payoutAccounts.get(caller.orgId);
      if (!debtor) throw new Conflict('The organization has no payout account to pay from: set one with POST /payout-account first');
      const creditors: Creditor[] = settlement.suppliers
        .filter((s) => s.payoutProblem === null)
        .map((s) => {
          const record = deps.suppliers.get(caller.orgId, s.supplier)!;
          return { supplier: s.supplier, name: s.name, iban: record.iban!, payout: s.payout, street: record.street, zipCode: record.plz, city: record.city };
        });
      return payoutFile({ settlement, debtor, creditors, now: deps.clock.now() });
    },
  };
}

export type PayoutFiles = ReturnType<typeof createPayoutFiles>;
