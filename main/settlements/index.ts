import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { createPayoutAccountStore } from '../storage/payout-accounts.js';
import { createSettlementStore } from '../storage/settlements.js';
import type { StoreStore } from '../storage/stores.js';
import type { SupplierStore } from '../storage/suppliers.js';
import { createPayoutFiles } from './payout-file-service.js';
import { createSettlementService } from './settlement-service.js';
import { createStatementMails } from './statement-mails.js';
import { createStatements } from './statements.js';

/** Settlements, their payout files and statements, over one database: for the server and the CLI alike. */
export function createSettlements(deps: { db: Db; clock: Clock; stores: StoreStore; suppliers: SupplierStore; groups?: Pick<GroupCommit, 'hold' | 'afterCommit'> | undefined }) {
  const settlementStore = createSettlementStore(deps.db);
  const payoutAccounts = createPayoutAccountStore(deps.db);
  const service = createSettlementService({ ...deps, settlements: settlementStore, payoutAccounts });
  const statements = createStatements({ settlements: service, stores: deps.stores });
  return {
    service,
    payoutFiles: createPayoutFiles({ clock: deps.clock, settlements: service, payoutAccounts, suppliers: deps.suppliers }),
    statements,
    mails: createStatementMails({ db: deps.db, clock: deps.clock, settlements: service, statements, suppliers: deps.suppliers }),
  };
}

export type Settlements = ReturnType<typeof createSettlements>;
