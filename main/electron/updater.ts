import electronUpdater from 'electron-updater';
import type { Logger } from 'pino';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import type { Updater } from './update-schedule.js';

/**
 * electron-updater for this system (the NSIS installer on Windows, the deb or
 * the AppImage on Linux, as installed), asking the organization's generic
 * update server. The schedule decides when to download and install, so
 * nothing happens by itself, not even on quitting.
 */
export function electronUpdaterFor(settings: UpdateSettings, logger: Logger): Updater {
  const updater = electronUpdater.autoUpdater;
  updater.logger = {
    info: (message?: unknown) => logger.debug({ updater: message }, 'electron-updater'),
    warn: (message?: unknown) => logger.warn({ updater: message }, 'electron-updater'),
    error: (message?: unknown) => logger.debug({ updater: message }, 'electron-updater'),
  };
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = false;
  updater.setFeedURL({ provider: 'generic', url: settings.url });
  return updater;
}
