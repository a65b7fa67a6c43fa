import type { ReceiptPrintResult } from '../../shared/api/receipts.js';
import type { DailyReport, DailyReportPrintRequest } from '../../shared/api/reports.js';
import { reportDocument } from '../../shared/receipt/report-document.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, ValidationFailed } from '../services/errors.js';
import type { Services } from '../services/index.js';
import type { PrinterConnection } from './printer-connection.js';
import type { PrinterRegistry } from './printer-registry.js';
import type { PrinterStates } from './printer-states.js';
import { escPosCommands, languageOf } from './receipt-printing.js';

/** Prints a store's day's report on a registered network receipt printer, through the same socket and printer states as the receipts. */
export function createReportPrinting(deps: {
  services: Pick<Services, 'reports' | 'stores'>;
  clock: Clock;
  registry: PrinterRegistry;
  connection: PrinterConnection;
  states: PrinterStates;
  /** Puts the terminals' own totals beside the day's card payments, as `GET /reports/daily` does. */
  reconcile: (caller: Caller, report: DailyReport) => Promise<DailyReport['card']>;
}) {
  return {
    async print(caller: Caller, request: DailyReportPrintRequest): Promise<ReceiptPrintResult> {
      const printer = namedPrinter(deps.registry, caller, request.printer);
      const day = deps.services.reports.daily(caller, { store: request.store, date: request.date });
      const report = { ...day, card: await deps.reconcile(caller, day) };
      // The report answers for deleted stores too, so their name is read the same way.
      const store = deps.services.stores.retailStores.get(caller.orgId, report.store);
      const now = deps.clock.now();
      const document = reportDocument({
        report,
        storeName: store?.name ?? report.store,
        language: request.language ?? languageOf(store?.languageMain),
        printedAt: now.toISOString(),
      });
      const attempt = await deps.connection.send(printer, escPosCommands(document));
      return deps.states.record(printer, null, attempt, deps.clock.now());
    },
  };
}

/** An unregistered printer id is a wrong body field: answered in the validation shape, as the report's other fields are. */
function namedPrinter(registry: PrinterRegistry, caller: Caller, id: string) {
  try {
    return registry.named(caller, id);
  } catch (err) {
    if (err instanceof BadRequest) throw new ValidationFailed({ printer: [err.message.replace(/^printer: /, '')] });
    throw err;
  }
}

export type ReportPrinting = ReturnType<typeof createReportPrinting>;
