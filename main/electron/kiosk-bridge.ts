import type { IpcMain, IpcMainEvent } from 'electron';
import type { KioskPageActivity } from '../../shared/kiosk-bridge.js';
import type { KioskConfig } from '../../shared/kiosk-config.js';
import type { SalesJournalFiles } from './sales-journal.js';
import { isAllowedNavigation } from './window.js';

/** IPC channel on which the preload asks for the kiosk config; preload.cts names it too. */
export const KIOSK_CONFIG_CHANNEL = 'kiosk-bridge:config';
/** IPC channel on which the page reports its activity (`kioskBridge.reportActivity`); preload.cts names it too. */
export const KIOSK_ACTIVITY_CHANNEL = 'kiosk-bridge:activity';

/** IPC channels of `kioskBridge.journal` (list, put, remove); preload.cts names them too. */
export const KIOSK_JOURNAL_CHANNELS = { list: 'kiosk-bridge:journal-list', put: 'kiosk-bridge:journal-put', remove: 'kiosk-bridge:journal-remove' } as const;

type Sender = Pick<IpcMainEvent, 'senderFrame'>;

/**
 * Only the top frame of a page of the local server may ask: a frame of
 * another origin (an ad in an iframe, a page reached by a bug in the
 * navigation guard) must never learn the kiosk's store and printer, nor read
 * or write its journal of paid sales. The key is never handed out at all.
 */
export function isTrustedSender(event: Sender, origin: string): boolean {
  const frame = event.senderFrame;
  return frame !== null && frame.parent === null && isAllowedNavigation(frame.url, origin);
}

/** Answers the preload's synchronous request with the config, or null when there is none or the sender is not trusted. */
export function serveKioskConfig(ipcMain: Pick<IpcMain, 'on'>, origin: string, config: KioskConfig | undefined, onRefused: (url: string) => void): void {
  ipcMain.on(KIOSK_CONFIG_CHANNEL, (event) => {
    if (!isTrustedSender(event, origin)) {
      onRefused(event.senderFrame?.url ?? 'a frame that is gone');
      event.returnValue = null;
      return;
    }
    event.returnValue = config ?? null;
  });
}

const isActivity = (value: unknown): value is KioskPageActivity =>
  typeof value === 'object' && value !== null && typeof (value as KioskPageActivity).cartEmpty === 'boolean' && typeof (value as KioskPageActivity).saleInFlight === 'boolean';

/** Passes on what the local server's top frame reports about its cart and checkout; anything else is dropped. */
export function receiveKioskActivity(ipcMain: Pick<IpcMain, 'on'>, origin: string, onActivity: (activity: KioskPageActivity) => void): void {
  ipcMain.on(KIOSK_ACTIVITY_CHANNEL, (event, report: unknown) => {
    if (!isTrustedSender(event, origin) || !isActivity(report)) return;
    onActivity({ cartEmpty: report.cartEmpty, saleInFlight: report.saleInFlight });
  });
}

/**
 * Keeps the page's paid sales in the main process's journal. Only the local
 * server's top frame may read or write it; each write answers once it is on disk.
 */
export function serveSalesJournal(ipcMain: Pick<IpcMain, 'handle'>, origin: string, journal: SalesJournalFiles): void {
  const trusted = (event: Sender) => {
    if (!isTrustedSender(event, origin)) throw new Error('the sales journal answers only the kiosk page of the local server');
  };
  ipcMain.handle(KIOSK_JOURNAL_CHANNELS.list, (event) => (trusted(event), journal.list()));
  ipcMain.handle(KIOSK_JOURNAL_CHANNELS.put, (event, entry: unknown) => (trusted(event), journal.put(entry)));
  ipcMain.handle(KIOSK_JOURNAL_CHANNELS.remove, (event, orderId: unknown) => (trusted(event), journal.remove(orderId)));
}
