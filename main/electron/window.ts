import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * Options of the kiosk window. The page is remote content as far as Electron
 * is concerned (it talks to the API over HTTP), so it gets no Node access.
 */
export function kioskWindowOptions(options: { kiosk: boolean }): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    kiosk: options.kiosk,
    autoHideMenuBar: true,
    backgroundColor: '#ffffff',
    show: false,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
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
