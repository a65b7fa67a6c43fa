import type { NetworkPrinter, PrinterStatus, ReceiptPrintResult } from '../../shared/api/receipts.js';
import { printerName } from '../../shared/receipt/printer-address.js';
import type { PrintAttempt } from './printer-socket.js';

/**
 * The state of each receipt printer as the last attempt to print on it (a
 * receipt or a day's report) or a kiosk's check left it, for the status page.
 * Kept in memory: a restarted server knows a printer again when a kiosk starts
 * or prints on it.
 */
export function createPrinterStates() {
  const states = new Map<string, PrinterStatus>();
  /** `print`: what was printed (`orderId` of the receipt, null for a day's report); absent for a check, which keeps the last one. */
  const keep = (printer: NetworkPrinter, attempt: PrintAttempt, at: Date, print?: { orderId: string | null }): PrinterStatus => {
    const name = printerName(printer);
    const time = at.toISOString();
    const before = states.get(name);
    const printed = print !== undefined && attempt.state === 'ready';
    const status: PrinterStatus = {
      printer: name,
      state: attempt.state,
      message: attempt.message,
      lastAttemptAt: time,
      lastPrintedAt: printed ? time : (before?.lastPrintedAt ?? null),
      orderId: print ? print.orderId : (before?.orderId ?? null),
    };
    states.set(name, status);
    return status;
  };
  return {
    /** A receipt (`orderId`) or a day's report (null) sent to the printer; answers as the print endpoints do. */
    record(printer: NetworkPrinter, orderId: string | null, attempt: PrintAttempt, at: Date): ReceiptPrintResult {
      keep(printer, attempt, at, { orderId });
      return { printed: attempt.state === 'ready', printer: printerName(printer), ...attempt };
    },
    /** A check that printed nothing: the printer's state now, with what it last printed. */
    checked(printer: NetworkPrinter, attempt: PrintAttempt, at: Date): PrinterStatus {
      return keep(printer, attempt, at);
    },
    /** Every printer tried since the start, faults first. */
    list(): PrinterStatus[] {
      return [...states.values()].sort((a, b) => Number(a.state === 'ready') - Number(b.state === 'ready') || a.printer.localeCompare(b.printer));
    },
  };
}

export type PrinterStates = ReturnType<typeof createPrinterStates>;
