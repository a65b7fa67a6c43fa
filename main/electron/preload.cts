// The kiosk window's preload. It runs sandboxed, so it can require nothing but
// `electron` and stays a self-contained CommonJS file.
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

/** The same channels as KIOSK_CONFIG_CHANNEL and KIOSK_ACTIVITY_CHANNEL in kiosk-bridge.ts. */
const channel = 'kiosk-bridge:config';
const activityChannel = 'kiosk-bridge:activity';
/** The same channels as RECEIPT_PRINT_CHANNEL and RECEIPT_PRINTED_CHANNEL in receipt-print.ts. */
const printChannel = 'kiosk-bridge:print-receipt';
const printedChannel = 'kiosk-bridge:receipt-printed';

// Synchronous so that `window.kioskBridge.config` is there before the page's first script runs.
const config: unknown = ipcRenderer.sendSync(channel);

// The page gets plain data and one function that sends two booleans, never
// an IPC handle of its own or Node.
const reportActivity = (activity: unknown) => {
  const { cartEmpty, saleInFlight } = (activity ?? {}) as Record<string, unknown>;
  ipcRenderer.send(activityChannel, { cartEmpty: cartEmpty === true, saleInFlight: saleInFlight === true });
};
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
  config !== null && typeof config === 'object' ? { config: Object.freeze({ ...config }), reportActivity, printReceipt } : { reportActivity, printReceipt };
contextBridge.exposeInMainWorld('kioskBridge', Object.freeze(bridge));
