// The kiosk window's preload. It runs sandboxed, so it can require nothing but
// `electron` and stays a self-contained CommonJS file.
const { contextBridge, ipcRenderer } = require('electron') as typeof import('electron');

/** The same channel as KIOSK_CONFIG_CHANNEL in kiosk-bridge.ts. */
const channel = 'kiosk-bridge:config';

// Synchronous so that `window.kioskBridge.config` is there before the page's first script runs.
const config: unknown = ipcRenderer.sendSync(channel);

// The page gets plain data only: no function that reaches IPC, no Node.
if (config !== null && typeof config === 'object') {
  contextBridge.exposeInMainWorld('kioskBridge', Object.freeze({ config: Object.freeze({ ...config }) }));
}
