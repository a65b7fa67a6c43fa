import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach } from 'vitest';
import { setupApp, type AppContext, type ElectronMain, type ElectronModule } from '../../main/electron/main-process.js';

/** An event as Electron passes it to listeners that may cancel. */
export function cancellable() {
  return { prevented: false, preventDefault() { this.prevented = true; } };
}

type Listener = (...args: any[]) => void;

export interface StandInKeyStore {
  /** `safeStorage.isEncryptionAvailable()`. */
  available: boolean;
  /** `safeStorage.getSelectedStorageBackend()` (Linux): `basic_text` without a keyring. */
  backend: string;
  /** The secret of this user on this PC (DPAPI, the keyring's entry): another one cannot decrypt. */
  secret: string;
}

/**
 * safeStorage as the system's key store gives it to the app: AES-256-GCM under
 * a secret of the user, so a file copied to another PC or user cannot be read there.
 */
function standInSafeStorage(store: StandInKeyStore) {
  const key = () => createHash('sha256').update(store.secret).digest();
  return {
    isEncryptionAvailable: () => store.available,
    getSelectedStorageBackend: () => store.backend,
    encryptString(plain: string): Buffer {
      if (!store.available) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([Buffer.from('v11'), iv, cipher.getAuthTag(), body]);
    },
    decryptString(encrypted: Buffer): string {
      const decipher = createDecipheriv('aes-256-gcm', key(), encrypted.subarray(3, 15));
      decipher.setAuthTag(encrypted.subarray(15, 31));
      return Buffer.concat([decipher.update(encrypted.subarray(31)), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Stand-in for the `electron` module: records what the main process asks of
 * it and lets a test fire the events Electron would.
 */
export function standInElectron(userData: string, keyStore: Partial<StandInKeyStore> = {}) {
  const app = Object.assign(new EventEmitter(), {
    lock: true,
    lockRequests: 0,
    isPackaged: false,
    quitCalls: 0,
    /** True once a quit went through (no before-quit listener held it). */
    quitted: false,
    exitCodes: [] as number[],
    loginItems: [] as unknown[],
    switches: [] as [string, string | undefined][],
    whenReady: () => Promise.resolve(),
    getPath: (name: string) => (name === 'userData' ? userData : '/nonexistent'),
    quit() {
      app.quitCalls += 1;
      const event = cancellable();
      app.emit('before-quit', event);
      if (!event.prevented) app.quitted = true;
    },
    exit(code = 0) {
      app.exitCodes.push(code);
    },
    relaunches: 0,
    relaunch() {
      app.relaunches += 1;
    },
    requestSingleInstanceLock: () => {
      app.lockRequests += 1;
      return app.lock;
    },
    setLoginItemSettings(settings: unknown) {
      app.loginItems.push(settings);
    },
    commandLine: {
      appendSwitch: (name: string, value?: string) => {
        app.switches.push([name, value]);
      },
    },
  });

  const windows: StandInWindow[] = [];
  class StandInWindow extends EventEmitter {
    loaded: string | undefined;
    shown = false;
    openHandler: (() => { action: string }) | undefined;
    reloads = 0;
    crashes = 0;
    destroyed = false;
    session = {
      permissionRequestHandler: undefined as Listener | undefined,
      permissionCheckHandler: undefined as ((...args: unknown[]) => boolean) | undefined,
      headerFilter: undefined as { urls: string[] } | undefined,
      headerListener: undefined as Listener | undefined,
      requestFilter: undefined as { urls: string[] } | undefined,
      requestListener: undefined as Listener | undefined,
      setPermissionRequestHandler: (handler: Listener) => (this.session.permissionRequestHandler = handler),
      setPermissionCheckHandler: (handler: (...args: unknown[]) => boolean) => (this.session.permissionCheckHandler = handler),
      webRequest: {
        onHeadersReceived: (filter: { urls: string[] }, listener: Listener) => {
          this.session.headerFilter = filter;
          this.session.headerListener = listener;
        },
        onBeforeSendHeaders: (filter: { urls: string[] }, listener: Listener) => {
          this.session.requestFilter = filter;
          this.session.requestListener = listener;
        },
      },
    };
    webContents = Object.assign(new EventEmitter(), {
      session: this.session,
      setWindowOpenHandler: (handler: () => { action: string }) => (this.openHandler = handler),
      reload: () => (this.reloads += 1),
      forcefullyCrashRenderer: () => (this.crashes += 1),
      isDestroyed: () => this.destroyed,
    });
    constructor(readonly options: { webPreferences?: Record<string, unknown> } & Record<string, unknown>) {
      super();
      windows.push(this);
    }
    async loadURL(url: string) {
      this.loaded = url;
    }
    show() {
      this.shown = true;
    }
    focus() {}
    isMinimized() {
      return false;
    }
    restore() {}
    close() {
      if (this.destroyed) return;
      this.destroyed = true;
      this.emit('closed');
    }
    isDestroyed() {
      return this.destroyed;
    }
  }

  const handlers = new Map<string, Listener>();
  const ipcMain = Object.assign(new EventEmitter(), {
    handle(channel: string, listener: Listener) {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    },
    /** What `ipcRenderer.invoke` answers a frame at `url` (the top frame unless `parent` is given). */
    async invoke(channel: string, frame: { url: string; parent?: unknown }, ...args: unknown[]): Promise<unknown> {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ senderFrame: { url: frame.url, parent: frame.parent ?? null } }, ...args);
    },
  });
  const dialog = {
    errors: [] as { title: string; message: string }[],
    showErrorBox: (title: string, message: string) => dialog.errors.push({ title, message }),
  };
  const powerSaveBlocker = {
    active: new Map<number, string>(),
    next: 1,
    start(type: string) {
      const id = powerSaveBlocker.next++;
      powerSaveBlocker.active.set(id, type);
      return id;
    },
    stop(id: number) {
      powerSaveBlocker.active.delete(id);
    },
  };
  const menu = {
    applicationMenu: 'default' as unknown,
    setApplicationMenu: (value: unknown) => (menu.applicationMenu = value),
  };
  const keys: StandInKeyStore = { available: true, backend: 'gnome_libsecret', secret: 'kasse@store-pc', ...keyStore };
  const safeStorage = standInSafeStorage(keys);
  const module = { app, BrowserWindow: StandInWindow, ipcMain, dialog, powerSaveBlocker, Menu: menu, safeStorage } as unknown as ElectronModule;
  return { module, app, windows, ipcMain, dialog, powerSaveBlocker, menu, safeStorage };
}

/** For tests whose kiosk.json sets no update server: asking for an updater is then a bug. */
const noUpdater: AppContext['updaterFor'] = () => {
  throw new Error('the app asked for an updater although kiosk.json sets no update server');
};

/** The main process's surroundings, with its log and terminal output kept for assertions. */
export function standInContext(env: NodeJS.ProcessEnv, argv: string[] = ['store-server'], updaterFor: AppContext['updaterFor'] = noUpdater) {
  const logLines: { level: number; msg: string }[] = [];
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stream = (into: string[]) => ({
    write(text: string, callback?: () => void) {
      into.push(text);
      callback?.();
      return true;
    },
  });
  const context: AppContext = {
    env,
    argv,
    platform: 'linux',
    execPath: '/opt/Store Server/store-server',
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) }),
    streams: { stdout: stream(stdout), stderr: stream(stderr) },
    updaterFor,
  };
  return { context, logLines, stdout: () => stdout.join(''), stderr: () => stderr.join('') };
}

export interface StandInStart {
  isPackaged?: boolean;
  keyStore?: Partial<StandInKeyStore>;
  platform?: NodeJS.Platform;
  argv?: string[];
  updaterFor?: AppContext['updaterFor'];
}

/**
 * Starts the app against the stand-in on a free port (as a store PC would on
 * 8787), each in its own user-data folder; everything is closed and removed
 * after each test.
 */
export function standInApps() {
  const started: ElectronMain[] = [];
  const folders: string[] = [];
  afterEach(async () => {
    for (const main of started.splice(0)) await main.server.close().catch(() => {});
    for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'retail-electron-'));
    folders.push(dir);
    return dir;
  };
  async function start(env: NodeJS.ProcessEnv = {}, options: StandInStart = {}) {
    const electron = standInElectron(tempDir(), options.keyStore);
    electron.app.isPackaged = options.isPackaged ?? false;
    const run = standInContext({ PORT: '0', ...env }, options.argv, options.updaterFor);
    run.context.platform = options.platform ?? 'linux';
    const main = await setupApp(electron.module, run.context);
    if (main) started.push(main);
    const origin = main ? new URL(main.server.url).origin : '';
    return { ...electron, ...run, main: main!, window: electron.windows[0]!, origin };
  }
  /** Leaves a server the test has closed itself. */
  const forget = (main: ElectronMain) => started.splice(started.indexOf(main), 1);
  return { start, tempDir, forget };
}
