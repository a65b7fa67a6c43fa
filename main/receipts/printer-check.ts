import type { NetworkPrinter, PrinterStatus } from '../../shared/api/receipts.js';
import type { Clock } from '../services/clock.js';
import type { PrinterStates } from './printer-states.js';
import { sendToPrinter } from './printer-socket.js';

/**
 * Asks a receipt printer for its paper status and prints nothing: a kiosk
 * names its printer this way at start, so the status page lists it (and a
 * printer that is off or out of paper) before the first sale.
 */
export async function checkPrinter(deps: { clock: Clock; states: PrinterStates }, printer: NetworkPrinter): Promise<PrinterStatus> {
  const attempt = await sendToPrinter(printer, Buffer.alloc(0));
  return deps.states.checked(printer, attempt, deps.clock.now());
}
