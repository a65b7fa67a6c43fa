import electronUpdater from 'electron-updater';
import type { Logger } from 'pino';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import type { Updater } from './update-schedule.js';
import { VERSION } from '../version.js';
import { UPDATE_SIGNING_PUBLIC_KEY } from './update-public-key.js';
import { signedUpdates } from './update-signature.js';

/**
 * electron-updater for this system (the NSIS installer on Windows, the deb or
 * the AppImage on Linux, as installed), asking the organization's generic
 * update server. The schedule decides when to download and install, so
 * nothing happens by itself, not even on quitting. On Windows electron-updater
 * itself refuses an installer without the Authenticode signature of the
 * publisher named in electron-builder.yml; on Linux each file must carry the
 * release key's signature (update-signature.ts).
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
  // An older build, even a signed one, never replaces a newer one (update-signature.ts also refuses it on Linux).
  updater.allowDowngrade = false;
  updater.setFeedURL({ provider: 'generic', url: settings.url });
  if (process.platform !== 'linux') return updater;
  return signedUpdates(updater, { settings, currentVersion: VERSION, publicKey: UPDATE_SIGNING_PUBLIC_KEY, logger });
}
