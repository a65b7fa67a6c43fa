import type { PrinterStatus } from '../../shared/api/printers.js';
import type { ReceiptPrintResult } from '../../shared/api/receipts.js';
import type { PrinterRecord } from '../storage/printers.js';
import type { PrintAttempt } from './printer-socket.js';

/** What the server remembers of one printer since it started. */
export type PrinterReach = Pick<PrinterStatus, 'state' | 'message' | 'lastAttemptAt' | 'lastPrintedAt' | 'orderId'>;

const NOT_REACHED: PrinterReach = { state: 'unknown', message: null, lastAttemptAt: null, lastPrintedAt: null, orderId: null };

/**
 * The state of each registered printer as the last attempt to print on it (a
 * receipt or a day's report) or a check left it, for the status page. Kept in
 * memory by printer id: a restarted server knows a printer's state again when
 * a kiosk starts or prints on it.
 */
export function createPrinterStates() {
  const states = new Map<string, PrinterReach>();
  /** `print`: what was printed (`orderId` of the receipt, null for a day's report); absent for a check, which keeps the last one. */
  const keep = (printer: PrinterRecord, attempt: PrintAttempt, at: Date, print?: { orderId: string | null }): PrinterReach => {
    const time = at.toISOString();
    const before = states.get(printer.id);
    const printed = print !== undefined && attempt.state === 'ready';
    const reach: PrinterReach = {
      state: attempt.state,
      message: attempt.message,
      lastAttemptAt: time,
      lastPrintedAt: printed ? time : (before?.lastPrintedAt ?? null),
      orderId: print ? print.orderId : (before?.orderId ?? null),
    };
    states.set(printer.id, reach);
    return reach;
  };
  return {
    /** A receipt (`orderId`) or a day's report (null) sent to the printer; answers as the print endpoints do. */
    record(printer: PrinterRecord, orderId: string | null, attempt: PrintAttempt, at: Date): ReceiptPrintResult {
      keep(printer, attempt, at, { orderId });
      return { printed: attempt.state === 'ready', printer: printer.id, name: printer.name, ...attempt };
    },
    /** A check that printed nothing: the printer's state now, with what it last printed. */
    checked(printer: PrinterRecord, attempt: PrintAttempt, at: Date): PrinterReach {
      return keep(printer, attempt, at);
    },
    /** What the server knows of the printer; `unknown` before it reached for it. */
    of(printerId: string): PrinterReach {
      return states.get(printerId) ?? NOT_REACHED;
    },
  };
}

export type PrinterStates = ReturnType<typeof createPrinterStates>;
