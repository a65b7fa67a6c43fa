// The kiosk window's preload. It runs sandboxed, so it can require nothing but
// `electron` and stays a self-contained CommonJS file.
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

/** The same channels as KIOSK_CONFIG_CHANNEL, KIOSK_ACTIVITY_CHANNEL and KIOSK_JOURNAL_CHANNELS in kiosk-bridge.ts. */
const channel = 'kiosk-bridge:config';
const activityChannel = 'kiosk-bridge:activity';
const journalChannels = { list: 'kiosk-bridge:journal-list', put: 'kiosk-bridge:journal-put', remove: 'kiosk-bridge:journal-remove' };
/** The same channels as RECEIPT_PRINT_CHANNEL and RECEIPT_PRINTED_CHANNEL in receipt-print.ts. */
const printChannel = 'kiosk-bridge:print-receipt';
const printedChannel = 'kiosk-bridge:receipt-printed';

// Synchronous so that `window.kioskBridge.config` is there before the page's first script runs.
const config: unknown = ipcRenderer.sendSync(channel);

// The page gets plain data, one function that sends two booleans, the
// journal's three calls and the receipt print, never an IPC handle of its own or Node.
const reportActivity = (activity: unknown) => {
  const { cartEmpty, saleInFlight } = (activity ?? {}) as Record<string, unknown>;
  ipcRenderer.send(activityChannel, { cartEmpty: cartEmpty === true, saleInFlight: saleInFlight === true });
};
// The journal of paid sales lives in the main process (a file per sale in the
// data folder), which checks every entry; each call resolves once it is on disk.
const journal = Object.freeze({
  list: (): Promise<unknown> => ipcRenderer.invoke(journalChannels.list),
  put: (entry: unknown): Promise<void> => ipcRenderer.invoke(journalChannels.put, entry),
  remove: (orderId: unknown): Promise<void> => ipcRenderer.invoke(journalChannels.remove, String(orderId)),
});
// Prints the page's receipt on the PC's printer: the page passes the receipt's length in millimetres, and learns whether it printed.
let lastPrint = 0;
const printReceipt = (heightMm: unknown) =>
  new Promise<{ printed: boolean; message: string | null }>((resolve) => {
    const id = ++lastPrint;
    const listener = (_event: unknown, answer: { id?: unknown; printed?: unknown; message?: unknown }) => {
      if (answer?.id !== id) return;
      ipcRenderer.removeListener(printedChannel, listener);
      resolve({ printed: answer.printed === true, message: typeof answer.message === 'string' ? answer.message : null });
    };
    ipcRenderer.on(printedChannel, listener);
    ipcRenderer.send(printChannel, { id, heightMm: Number(heightMm) });
  });
const bridge =
  config !== null && typeof config === 'object'
    ? { config: Object.freeze({ ...config }), reportActivity, journal, printReceipt }
    : { reportActivity, journal, printReceipt };
contextBridge.exposeInMainWorld('kioskBridge', Object.freeze(bridge));
