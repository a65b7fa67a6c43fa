import type { ReceiptPrintResult } from '../../shared/api/receipts.js';
import type { DailyReportPrintRequest } from '../../shared/api/reports.js';
import { reportDocument } from '../../shared/receipt/report-document.js';
import type { Caller } from '../services/caller.js';
import type { Clock } from '../services/clock.js';
import type { Services } from '../services/index.js';
import type { PrinterStates } from './printer-states.js';
import { sendToPrinter } from './printer-socket.js';
import { escPosCommands, languageOf } from './receipt-printing.js';

/** Prints a store's day's report on a network receipt printer, through the same socket and printer states as the receipts. */
export function createReportPrinting(deps: { services: Pick<Services, 'reports' | 'stores'>; clock: Clock; states: PrinterStates }) {
  return {
    async print(caller: Caller, request: DailyReportPrintRequest): Promise<ReceiptPrintResult> {
      const report = deps.services.reports.daily(caller, { store: request.store, date: request.date });
      // The report answers for deleted stores too, so their name is read the same way.
      const store = deps.services.stores.retailStores.get(caller.orgId, report.store);
      const now = deps.clock.now();
      const document = reportDocument({
        report,
        storeName: store?.name ?? report.store,
        language: request.language ?? languageOf(store?.languageMain),
        printedAt: now.toISOString(),
      });
      const attempt = await sendToPrinter(request.printer, escPosCommands(document));
      return deps.states.record(request.printer, null, attempt, deps.clock.now());
    },
  };
}

export type ReportPrinting = ReturnType<typeof createReportPrinting>;
