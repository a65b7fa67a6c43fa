import type { Caller } from '../services/caller.js';
import type { StoreStore } from '../storage/stores.js';
import type { SettlementService } from './settlement-service.js';
import { statementCsv } from './statement-csv.js';
import { statementModel, type StatementModel } from './statement-model.js';
import { statementPdf } from './statement-pdf.js';

/** `GET /settlements/{id}/statements/{supplier}`: what one supplier sold and is owed, as PDF or CSV. */
export function createStatements(deps: { settlements: SettlementService; stores: StoreStore }) {
  const modelOf = (caller: Caller, id: string, supplier: string): StatementModel => {
    const part = deps.settlements.supplierPart(caller, id, supplier);
    return statementModel({ ...part, supplier: part.record, storeOf: (store) => deps.stores.get(caller.orgId, store) });
  };
  return {
    model: modelOf,
    pdf: (caller: Caller, id: string, supplier: string): Promise<Buffer> => statementPdf(modelOf(caller, id, supplier)),
    csv: (caller: Caller, id: string, supplier: string): string => statementCsv(modelOf(caller, id, supplier)),
  };
}

export type Statements = ReturnType<typeof createStatements>;
