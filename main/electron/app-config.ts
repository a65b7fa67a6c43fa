import { join } from 'node:path';
import type { App } from 'electron';
import { readConfig, type Config } from '../config.js';

/**
 * The app's data folder unless `DATA_DIR` says otherwise: `%APPDATA%\Store Server\data`
 * on Windows, `~/.config/Store Server/data` on Linux. An uninstall leaves it alone.
 */
export const appDataDir = (app: Pick<App, 'getPath'>) => join(app.getPath('userData'), 'data');

/**
 * The server's and the CLI's settings in the app: the same variables as
 * `npm start`, so the API is at the address scales and scanners are set up
 * for (127.0.0.1:8787 unless HOST/PORT say otherwise), with the data in the
 * app's own folder.
 */
export const appConfig = (app: Pick<App, 'getPath'>, env: NodeJS.ProcessEnv): Config =>
  readConfig({ ...env, DATA_DIR: env.DATA_DIR || appDataDir(app) });
