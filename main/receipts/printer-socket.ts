import { Socket } from 'node:net';
import type { PrinterState } from '../../shared/api/printers.js';
import { printerName } from '../../shared/receipt/printer-address.js';

/** How staff registered the printer: messages name it so. */
interface PrinterAddress {
  host: string;
  port: number;
}

/** What became of one attempt to print. */
export interface PrintAttempt {
  state: PrinterState;
  message: string | null;
}

export interface PrinterSocketOptions {
  /** Longest wait for the connection, in milliseconds. */
  connectTimeoutMs: number;
  /** Longest wait for the answer to the paper status query; printers that do not answer are printed to all the same. */
  statusWaitMs: number;
  /** Longest wait for the printer to take the whole receipt. */
  sendTimeoutMs: number;
}

export const DEFAULT_PRINTER_SOCKET_OPTIONS: PrinterSocketOptions = { connectTimeoutMs: 3000, statusWaitMs: 500, sendTimeoutMs: 10_000 };

/** ESC/POS DLE EOT 4: "send the paper roll sensor status now", answered even while the printer is busy. */
const PAPER_STATUS_QUERY = Buffer.from([0x10, 0x04, 0x04]);

/**
 * A status byte has bits 1 and 4 set and bits 0 and 7 clear; bits 5 and 6
 * set mean the paper has run out.
 */
export function isPaperOut(status: number): boolean {
  return (status & 0x93) === 0x12 && (status & 0x60) === 0x60;
}

/** How long the printer may keep the connection open after taking the receipt. */
const LINGER_MS = 1000;


function connectionProblem(printer: PrinterAddress, err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return `The printer at ${printerName(printer)} refused the connection: is it switched on, and is the port right?`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `No printer answers at ${printerName(printer)}: check its network cable and its address.`;
    default:
      return `The connection to the printer at ${printerName(printer)} failed (${err.code ?? err.message}).`;
  }
}

/**
 * Sends ESC/POS commands to a network receipt printer: asks for its paper
 * status first and sends nothing when it reports its paper end, so the
 * customer is not told a receipt is coming that never does. Connects to
 * `address`, the one its caller resolved and checked (printer-connection.ts).
 */
export function sendToPrinter(printer: PrinterAddress, address: string, commands: Buffer, options: PrinterSocketOptions = DEFAULT_PRINTER_SOCKET_OPTIONS): Promise<PrintAttempt> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let phase: 'connect' | 'status' | 'send' | 'done' = 'connect';
    let statusTimer: NodeJS.Timeout | undefined;
    let flushed = false;
    const finish = (attempt: PrintAttempt) => {
      if (phase === 'done') return;
      phase = 'done';
      clearTimeout(statusTimer);
      socket.destroy();
      resolve(attempt);
    };
    const send = () => {
      if (phase !== 'status') return;
      phase = 'send';
      clearTimeout(statusTimer);
      socket.setTimeout(options.sendTimeoutMs);
      socket.end(commands);
    };

    socket.setTimeout(options.connectTimeoutMs);
    socket.on('timeout', () =>
      finish(
        flushed
          ? { state: 'ready', message: null }
          : phase === 'send'
          ? { state: 'error', message: `The printer at ${printerName(printer)} stopped taking the receipt: check it for a paper jam or an open cover.` }
          : { state: 'offline', message: `The printer at ${printerName(printer)} did not answer within ${options.connectTimeoutMs / 1000} s: is it switched on and on the network?` },
      ),
    );
    socket.on('error', (err: NodeJS.ErrnoException) =>
      finish(
        phase === 'connect'
          ? { state: 'offline', message: connectionProblem(printer, err) }
          : { state: 'error', message: `The connection to the printer at ${printerName(printer)} broke while printing (${err.code ?? err.message}).` },
      ),
    );
    socket.on('data', (data: Buffer) => {
      if (phase !== 'status') return;
      const status = data[data.length - 1] as number;
      if (isPaperOut(status)) finish({ state: 'paperOut', message: `The printer at ${printerName(printer)} is out of paper.` });
      else send();
    });
    socket.on('close', () => finish(flushed ? { state: 'ready', message: null } : { state: 'error', message: `The printer at ${printerName(printer)} closed the connection before the receipt was sent.` }));
    // Closing at once could reset the connection before the printer has read everything:
    // wait for the printer to close its side, or a moment for a printer that keeps it open.
    socket.on('finish', () => {
      if (phase !== 'send') return;
      flushed = true;
      socket.setTimeout(LINGER_MS);
    });
    socket.connect(printer.port, address, () => {
      phase = 'status';
      socket.setTimeout(0);
      socket.write(PAPER_STATUS_QUERY);
      statusTimer = setTimeout(send, options.statusWaitMs);
    });
  });
}
