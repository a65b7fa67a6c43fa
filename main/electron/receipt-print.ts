import type { IpcMain, IpcMainEvent, WebContentsPrintOptions } from 'electron';
import type { Logger } from 'pino';
import type { KioskReceiptPrintAnswer } from '../../shared/kiosk-bridge.js';
import type { ReceiptPrinterSetting } from '../../shared/kiosk-config.js';
import { isTrustedSender } from './kiosk-bridge.js';

/** IPC channel on which the page asks for its receipt to be printed (`kioskBridge.printReceipt`); preload.cts names it too. */
export const RECEIPT_PRINT_CHANNEL = 'kiosk-bridge:print-receipt';
/** IPC channel of the answer; preload.cts names it too. */
export const RECEIPT_PRINTED_CHANNEL = 'kiosk-bridge:receipt-printed';

/** Width of receipt paper, in micrometres. */
const PAPER_WIDTH_UM = 80_000;
/** A receipt page is at least this long and at most this long, in millimetres. */
const MIN_HEIGHT_MM = 60;
const MAX_HEIGHT_MM = 3000;

/**
 * Options of a silent print of the kiosk page as one 80 mm wide page as long
 * as the receipt (the page's print style shows the receipt alone).
 */
export function receiptPrintOptions(printer: { deviceName?: string | undefined }, heightMm: number): WebContentsPrintOptions {
  const height = Number.isFinite(heightMm) ? Math.min(MAX_HEIGHT_MM, Math.max(MIN_HEIGHT_MM, Math.ceil(heightMm))) : MIN_HEIGHT_MM;
  const options: WebContentsPrintOptions = {
    silent: true,
    printBackground: false,
    color: false,
    margins: { marginType: 'none' },
    pageSize: { width: PAPER_WIDTH_UM, height: height * 1000 },
  };
  if (printer.deviceName) options.deviceName = printer.deviceName;
  return options;
}

type PrintEvent = Pick<IpcMainEvent, 'senderFrame' | 'reply'> & { sender: Pick<IpcMainEvent['sender'], 'print'> };

/**
 * Prints the kiosk page's receipt on the PC's printer when kiosk.json names a
 * `system` printer; answers every request, so the page never waits for
 * nothing. Only the local server's top frame may print.
 */
export function serveReceiptPrinting(ipcMain: Pick<IpcMain, 'on'>, origin: string, printer: ReceiptPrinterSetting | undefined, logger: Logger): void {
  ipcMain.on(RECEIPT_PRINT_CHANNEL, (event: PrintEvent, request: unknown) => {
    if (!isTrustedSender(event, origin)) return;
    const { id, heightMm } = (request ?? {}) as Record<string, unknown>;
    if (typeof id !== 'number') return;
    const answer = (printed: boolean, message: string | null) => event.reply(RECEIPT_PRINTED_CHANNEL, { id, printed, message } satisfies KioskReceiptPrintAnswer);
    if (printer?.type !== 'system') return answer(false, 'kiosk.json names no printer of this PC ("printer": {"type": "system"})');
    event.sender.print(receiptPrintOptions(printer, Number(heightMm)), (success, failureReason) => {
      if (!success) logger.warn({ printer: printer.deviceName ?? 'default', reason: failureReason }, 'the receipt did not print');
      answer(success, success ? null : `The printer ${printer.deviceName ?? '(default)'} did not print: ${failureReason}`);
    });
  });
}
