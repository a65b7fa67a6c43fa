import type { App, BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import { join } from 'node:path';
import { readConfig } from '../config.js';
import { startServer, type RunningServer } from '../server.js';
import { isAllowedNavigation, kioskWindowOptions } from './window.js';

/** The parts of the `electron` module the main process uses; tests pass a stand-in. */
/**
 * V8 flags of the main process, the same `npm start` passes to node: a small
 * young generation keeps each garbage-collection pause short, which is what
 * a scanner waiting on a lookup notices (see Performance in the README).
 */
export const JS_FLAGS = '--max-semi-space-size=4';

export interface ElectronModule {
  app: Pick<App, 'whenReady' | 'getPath' | 'on' | 'quit' | 'requestSingleInstanceLock' | 'commandLine'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => Pick<BrowserWindow, 'loadURL' | 'once' | 'show' | 'webContents' | 'focus'>;
}

export interface ElectronMain {
  server: RunningServer;
  window: InstanceType<ElectronModule['BrowserWindow']>;
}

/**
 * Starts the API in this process on 127.0.0.1, then opens the kiosk window on
 * it. Everything else the product does lives in the server.
 */
export async function onReady(electron: ElectronModule, env: NodeJS.ProcessEnv = process.env): Promise<ElectronMain> {
  const config = readConfig({
    ...env,
    HOST: '127.0.0.1',
    PORT: env.PORT ?? '0',
    DATA_DIR: env.DATA_DIR ?? join(electron.app.getPath('userData'), 'data'),
  });
  const server = await startServer(config);
  const origin = new URL(server.url).origin;

  const window = new electron.BrowserWindow(kioskWindowOptions({ kiosk: env.KIOSK_MODE === '1' }));
  window.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  window.webContents.on('will-navigate', (event, url) => {
    if (!isAllowedNavigation(url, origin)) event.preventDefault();
  });
  window.once('ready-to-show', () => window.show());
  electron.app.on('before-quit', () => void server.close());
  await window.loadURL(`${origin}/`);
  return { server, window };
}

/** Wires the app's lifecycle: one instance per machine, quit when the window closes. */
export function setupApp(electron: ElectronModule): Promise<ElectronMain | undefined> {
  if (!electron.app.requestSingleInstanceLock()) {
    electron.app.quit();
    return Promise.resolve(undefined);
  }
  electron.app.commandLine.appendSwitch('js-flags', JS_FLAGS);
  electron.app.on('window-all-closed', () => electron.app.quit());
  return electron.app.whenReady().then(() => onReady(electron));
}
