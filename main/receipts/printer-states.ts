import type { NetworkPrinter, PrinterStatus } from '../../shared/api/receipts.js';
import type { PrintAttempt } from './printer-socket.js';

/**
 * The state of each receipt printer as the last attempt to print on it (a
 * receipt or a day's report) left it, for the status page. Kept in memory: a
 * restarted server knows a printer again from the next receipt.
 */
export function createPrinterStates() {
  const states = new Map<string, PrinterStatus>();
  return {
    /** `orderId` is the receipt's order; null for a day's report. */
    record(printer: NetworkPrinter, orderId: string | null, attempt: PrintAttempt, at: Date): void {
      const key = `${printer.host}:${printer.port}`;
      const time = at.toISOString();
      const before = states.get(key);
      states.set(key, {
        printer: key,
        state: attempt.state,
        message: attempt.message,
        lastAttemptAt: time,
        lastPrintedAt: attempt.state === 'ready' ? time : (before?.lastPrintedAt ?? null),
        orderId,
      });
    },
    /** A check that printed nothing: the printer's state now, with what it last printed. */
    checked(printer: NetworkPrinter, attempt: PrintAttempt, at: Date): PrinterStatus {
      const key = `${printer.host}:${printer.port}`;
      const before = states.get(key);
      const status = { printer: key, state: attempt.state, message: attempt.message, lastAttemptAt: at.toISOString(), lastPrintedAt: before?.lastPrintedAt ?? null, orderId: before?.orderId ?? null };
      states.set(key, status);
      return status;
    },
    /** Every printer tried since the start, faults first. */
    list(): PrinterStatus[] {
      return [...states.values()].sort((a, b) => Number(a.state === 'ready') - Number(b.state === 'ready') || a.printer.localeCompare(b.printer));
    },
  };
}

export type PrinterStates = ReturnType<typeof createPrinterStates>;
