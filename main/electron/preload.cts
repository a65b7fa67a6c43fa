// The kiosk window's preload. It runs sandboxed, so it can require nothing but
// `electron` and stays a self-contained CommonJS file.
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

/** The same channels as KIOSK_CONFIG_CHANNEL and KIOSK_ACTIVITY_CHANNEL in kiosk-bridge.ts. */
const channel = 'kiosk-bridge:config';
const activityChannel = 'kiosk-bridge:activity';

// Synchronous so that `window.kioskBridge.config` is there before the page's first script runs.
const config: unknown = ipcRenderer.sendSync(channel);

// The page gets plain data and one function that sends two booleans, never
// an IPC handle of its own or Node.
const reportActivity = (activity: unknown) => {
  const { cartEmpty, saleInFlight } = (activity ?? {}) as Record<string, unknown>;
  ipcRenderer.send(activityChannel, { cartEmpty: cartEmpty === true, saleInFlight: saleInFlight === true });
};
const bridge = config !== null && typeof config === 'object' ? { config: Object.freeze({ ...config }), reportActivity } : { reportActivity };
contextBridge.exposeInMainWorld('kioskBridge', Object.freeze(bridge));
