import type { IpcMain } from 'electron';
import type { Logger } from 'pino';
import { offUpdateStatus, type UpdateStatus } from '../../shared/api/update-status.js';
import type { KioskPageActivity } from '../../shared/kiosk-bridge.js';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import { systemClock } from '../services/clock.js';
import { VERSION } from '../version.js';
import { receiveKioskActivity } from './kiosk-bridge.js';
import type { KioskConfigReading } from './kiosk-config.js';
import { combineActivity } from './update-rules.js';
import { createUpdateSchedule, type UpdateSchedule, type Updater } from './update-schedule.js';

/** Why updates are off when kiosk.json cannot be used, without any of its content. */
export const KIOSK_CONFIG_UNUSABLE = 'kiosk.json in the data folder cannot be used, so the app does not look for updates: the app\'s log says what is wrong.';

/**
 * The app's self-update. Its status is asked for from the start (the server
 * gets the provider before it listens); the schedule exists once kiosk.json,
 * which needs the server's address, is read and names an update server.
 */
export function setupUpdates(logger: Logger) {
  let schedule: UpdateSchedule | undefined;
  let off = offUpdateStatus(VERSION);
  // Until the page reports, a customer may be at it: only the night hour installs.
  let page: KioskPageActivity = { cartEmpty: false, saleInFlight: false };
  return {
    status: (): UpdateStatus => schedule?.status() ?? off,
    /** Listens to the page's activity reports and, with an update server set, prepares the schedule. */
    configure(
      ipcMain: Pick<IpcMain, 'on'>,
      origin: string,
      reading: KioskConfigReading,
      updaterFor: (settings: UpdateSettings, logger: Logger) => Updater,
      salesWaiting: () => number,
    ): void {
      // `/update` answers without a key: it says where to look, the log (main-process.ts) says what is wrong.
      if (reading.problem) off = { ...off, message: KIOSK_CONFIG_UNUSABLE };
      receiveKioskActivity(ipcMain, origin, (activity) => {
        page = activity;
        schedule?.activityChanged();
      });
      if (!reading.update) return;
      // The sales journal's count of paid sales not yet recorded joins the page's report here.
      const activity = combineActivity(() => page, [salesWaiting]);
      schedule = createUpdateSchedule({ updater: updaterFor(reading.update, logger), settings: reading.update, currentVersion: VERSION, clock: systemClock, activity, logger });
    },
    /** Something the schedule waits on changed (a sale left the journal): a waiting update may install now. */
    activityChanged: (): void => schedule?.activityChanged(),
    start: (): void => schedule?.start(),
    stop: (): void => schedule?.stop(),
  };
}
