// The kiosk window's preload. It runs sandboxed, so it can require nothing but
// `electron` and stays a self-contained CommonJS file.
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

/** The same channels as KIOSK_CONFIG_CHANNEL, KIOSK_ACTIVITY_CHANNEL and KIOSK_JOURNAL_CHANNELS in kiosk-bridge.ts. */
const channel = 'kiosk-bridge:config';
const activityChannel = 'kiosk-bridge:activity';
const journalChannels = { list: 'kiosk-bridge:journal-list', put: 'kiosk-bridge:journal-put', remove: 'kiosk-bridge:journal-remove' };

// Synchronous so that `window.kioskBridge.config` is there before the page's first script runs.
const config: unknown = ipcRenderer.sendSync(channel);

// The page gets plain data, one function that sends two booleans and the
// journal's three calls, never an IPC handle of its own or Node.
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
const bridge = config !== null && typeof config === 'object' ? { config: Object.freeze({ ...config }), reportActivity, journal } : { reportActivity, journal };
contextBridge.exposeInMainWorld('kioskBridge', Object.freeze(bridge));
