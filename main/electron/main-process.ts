import type { App, BrowserWindow, BrowserWindowConstructorOptions, Dialog, IpcMain, Menu, PowerSaveBlocker } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import type { UpdateStatus } from '../../shared/api/update-status.js';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import { API_PREFIX } from '../app.js';
import type { CliStreams } from '../cli/run-admin-command.js';
import type { Config } from '../config.js';
import { DISK_FAILURE_EXIT_CODE, startServer, type RunningServer } from '../server.js';
import { cliArguments, runCliInApp } from './admin-cli.js';
import { AT_LOGIN_SWITCH, autostartTarget, KIOSK_SWITCH, startAtLogin } from './autostart.js';
import { appConfig } from './app-config.js';
import { serveKioskConfig, serveSalesJournal } from './kiosk-bridge.js';
import { serveReceiptPrinting } from './receipt-print.js';
import { blockBrowserShortcuts, keepDisplayOn, reloadWhenStuck } from './kiosk-behaviour.js';
import { readKioskConfig } from './kiosk-config.js';
import { exchangeWriteKey } from './kiosk-key-exchange.js';
import { keyProtection, secretKeyWrapper, type SafeStorageModule } from './key-protection.js';
import { openSalesJournal } from './sales-journal.js';
import { addContentSecurityPolicy, confineToOrigin, denyAllPermissions, sendKeyToLocalServer } from './security.js';
import { readStaffPin } from '../kiosk/staff-pin.js';
import { guardStaffExit, pinPromptOptions, type PinPromptWindow } from './staff-exit.js';
import { shutDownInOrder } from './shutdown.js';
import { describeStartupError, STARTUP_ERROR_TITLE } from './startup-error.js';
import type { Updater } from './update-schedule.js';
import { electronUpdaterFor } from './updater.js';
import { setupUpdates } from './updates.js';
import { kioskWindowOptions, windowOrigin } from './window.js';

/**
 * V8 flags of the main process, the same `npm start` passes to node: a small
 * young generation keeps each garbage-collection pause short, which is what
 * a scanner waiting on a lookup notices (see docs/performance.md).
 */
export const JS_FLAGS = '--max-semi-space-size=4';

/** The compiled preload sits next to this module in dist/main/electron/. */
export const PRELOAD_FILE = join(dirname(fileURLToPath(import.meta.url)), 'preload.cjs');

export type KioskWindow = Pick<BrowserWindow, 'loadURL' | 'once' | 'show' | 'webContents' | 'focus' | 'isMinimized' | 'restore' | 'close' | 'isDestroyed'>;

/** The parts of the `electron` module the main process uses; tests pass a stand-in. */
export interface ElectronModule {
  app: Pick<App, 'whenReady' | 'getPath' | 'on' | 'quit' | 'exit' | 'relaunch' | 'requestSingleInstanceLock' | 'commandLine' | 'isPackaged' | 'setLoginItemSettings'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => KioskWindow;
  ipcMain: Pick<IpcMain, 'on' | 'handle'>;
  dialog: Pick<Dialog, 'showErrorBox'>;
  powerSaveBlocker: Pick<PowerSaveBlocker, 'start' | 'stop'>;
  Menu: Pick<typeof Menu, 'setApplicationMenu'>;
  safeStorage: SafeStorageModule;
}

/** What the main process reads from its surroundings; tests pass their own. */
export interface AppContext {
  env: NodeJS.ProcessEnv;
  argv: readonly string[];
  platform: NodeJS.Platform;
  execPath: string;
  logger: Logger;
  streams: CliStreams;
  /** The updater asking the organization's update server (kiosk.json's `update`). */
  updaterFor: (settings: UpdateSettings, logger: Logger) => Updater;
}

export interface ElectronMain {
  server: RunningServer;
  window: KioskWindow;
  config: Config;
  /** What the update status provider hands the server. */
  updateStatus: () => UpdateStatus;
}

export function processContext(): AppContext {
  return {
    env: process.env,
    argv: process.argv,
    platform: process.platform,
    execPath: process.execPath,
    logger: pino({ level: process.env.LOG_LEVEL || 'info' }),
    streams: process,
    updaterFor: electronUpdaterFor,
  };
}

/** `--kiosk` or `KIOSK_MODE=1` turn kiosk mode on; kiosk.json keeps it on from then on. */
const kioskSwitch = (context: AppContext) => context.env.KIOSK_MODE === '1' || context.argv.includes(KIOSK_SWITCH);

/** Starts the API in this process, then opens the kiosk window on it. Everything else the product does lives in the server. */
export async function onReady(electron: ElectronModule, context: AppContext, config: Config): Promise<ElectronMain> {
  const { app } = electron;
  const { logger } = context;
  const updates = setupUpdates(logger);
  const protection = keyProtection(electron.safeStorage, context.platform);
  const server = await startServer(config, {
    logger,
    updateStatus: updates.status,
    keyWrapper: secretKeyWrapper(protection),
    // After a failed flush to disk: out at once, without closing the database, and back, so the start recovers from the WAL.
    onDiskFailure: () => {
      app.relaunch();
      app.exit(DISK_FAILURE_EXIT_CODE);
    },
  });
  const origin = windowOrigin(config.host, server.port);

  const kioskConfig = readKioskConfig(config.dataDir, origin + API_PREFIX, {
    kioskSwitch: kioskSwitch(context),
    startedAtLogin: context.argv.includes(AT_LOGIN_SWITCH),
    protection,
    logger,
    exchangeKey: exchangeWriteKey(config.dataDir, logger),
  });
  const { kiosk } = kioskConfig;
  if (kioskConfig.problem) logger.warn(kioskConfig.problem + '; the kiosk shows its set-up screen and the app does not look for updates');
  serveKioskConfig(electron.ipcMain, origin, kioskConfig.config, (url) => logger.warn({ url }, 'refused the kiosk config to a frame outside the local server'));
  const journal = openSalesJournal(config.dataDir, logger, () => updates.activityChanged());
  serveSalesJournal(electron.ipcMain, origin, journal);
  updates.configure(electron.ipcMain, origin, kioskConfig, context.updaterFor, () => journal.waiting());
  serveReceiptPrinting(electron.ipcMain, origin, kioskConfig.config?.printer, logger);

  const window = new electron.BrowserWindow(kioskWindowOptions({ kiosk, preload: PRELOAD_FILE }));
  const contents = window.webContents;
  denyAllPermissions(contents.session);
  addContentSecurityPolicy(contents.session, origin);
  confineToOrigin(contents, origin);
  reloadWhenStuck(contents, logger);
  if (kioskConfig.key !== undefined) sendKeyToLocalServer(contents.session, origin, kioskConfig.key);
  guardStaffExit(contents, {
    kiosk,
    readPin: () => readStaffPin(config.dataDir),
    openPrompt: () => new electron.BrowserWindow(pinPromptOptions(window)) as PinPromptWindow,
    quit: () => app.quit(),
    logger,
  });
  if (kiosk) blockBrowserShortcuts(contents);

  // Without a menu there are no shortcuts to reload, close the window or open the developer tools.
  if (kiosk) electron.Menu.setApplicationMenu(null);
  const allowSleep = kiosk ? keepDisplayOn(electron.powerSaveBlocker) : () => {};
  if (kiosk && app.isPackaged) {
    try {
      const registered = startAtLogin(app, autostartTarget(context.env, context.platform, context.execPath));
      if (registered) logger.info({ registered }, 'the kiosk starts at login');
    } catch (err) {
      logger.warn({ err }, 'could not register the kiosk to start at login; it runs, but must be started by hand');
    }
  }
  shutDownInOrder(app, [updates.stop, allowSleep, () => server.close()], logger);
  app.on('second-instance', () => {
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  window.once('ready-to-show', () => window.show());
  // Not awaited: a page that fails to load is the window's problem, not a reason to stop the server the tills rely on.
  window.loadURL(`${origin}/`).catch((err: unknown) => logger.error({ err }, 'the kiosk page did not load'));
  updates.start();
  return { server, window, config, updateStatus: updates.status };
}

function reportStartupFailure(electron: ElectronModule, context: AppContext, err: unknown, config: Config | undefined): undefined {
  const message = describeStartupError(err, config);
  context.logger.error({ err, host: config?.host, port: config?.port }, message);
  electron.dialog.showErrorBox(STARTUP_ERROR_TITLE, message);
  electron.app.exit(1);
  return undefined;
}

/**
 * Wires the app's lifecycle: `--cli` runs one administration command and
 * exits; otherwise one instance per machine, quit when the window closes, and
 * a start-up failure is shown in an error window rather than dying silently.
 */
export async function setupApp(electron: ElectronModule, context: AppContext = processContext()): Promise<ElectronMain | undefined> {
  const { app } = electron;
  const cli = cliArguments(context.argv);
  if (cli !== undefined) {
    // safeStorage answers once the app is ready; the command may need it to open stored secrets.
    await app.whenReady();
    await runCliInApp(app, cli, context.env, context.streams, secretKeyWrapper(keyProtection(electron.safeStorage, context.platform)));
    return undefined;
  }
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return undefined;
  }
  app.commandLine.appendSwitch('js-flags', JS_FLAGS);
  app.on('window-all-closed', () => app.quit());
  await app.whenReady();
  let config: Config | undefined;
  try {
    config = appConfig(app, context.env);
    return await onReady(electron, context, config);
  } catch (err) {
    return reportStartupFailure(electron, context, err, config);
  }
}
