import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * Options of the kiosk window. The page is remote content as far as Electron
 * is concerned (it talks to the API over HTTP), so it gets no Node access;
 * the preload hands it its configuration and nothing else.
 */
export function kioskWindowOptions(options: { kiosk: boolean; preload: string }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    kiosk: options.kiosk,
    fullscreen: options.kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    show: false,
    webPreferences: {
      preload: options.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      // A customer at the kiosk must not reach the page's internals, where its key is.
      devTools: !options.kiosk,
    },
  };
}

/** The window may only ever show pages of the local server it was opened on. */
export function isAllowedNavigation(target: string, serverOrigin: string): boolean {
  try {
    return new URL(target).origin === serverOrigin;
  } catch {
    return false;
  }
}

/**
 * Origin the window opens. A server listening on every interface
 * (`HOST=0.0.0.0` for scales on the store network) is still reached over
 * loopback from this PC.
 */
export function windowOrigin(host: string, port: number): string {
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}`;
}
