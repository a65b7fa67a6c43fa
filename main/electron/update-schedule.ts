import type { Logger } from 'pino';
import type { UpdateSettings } from '../../shared/kiosk-config.js';
import type { UpdateStatus } from '../../shared/api/update-status.js';
import type { Clock } from '../services/clock.js';
import type { Timers } from '../sync/worker.js';
import { installDecision, type KioskActivity } from './update-rules.js';

/**
 * The parts of electron-updater's `AppUpdater` the schedule uses. electron-updater
 * itself applies staged rollouts (`stagingPercentage`: a PC outside the stage
 * sees no update) and verifies the download's sha512 from the update metadata.
 */
export interface Updater {
  checkForUpdates(): Promise<{ isUpdateAvailable: boolean; updateInfo: { version: string } } | null>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** electron-updater reports a failed installation (the installer would not start) only as this event. */
  on(event: 'error', listener: (err: Error) => void): unknown;
}

export interface UpdateScheduleDeps {
  updater: Updater;
  settings: UpdateSettings;
  currentVersion: string;
  clock: Clock;
  activity: () => KioskActivity;
  logger: Logger;
  timers?: Timers;
}

/** How often the schedule looks at the clock and the kiosk: due checks start, a waiting update installs once allowed. */
export const TICK_MS = 60_000;

/**
 * The failure in words staff can act on. `GET /update` shows it to anyone
 * without a key: a failed check or download names neither the server's address
 * nor the updater's text (which quotes it); the log has both.
 */
function describeFailure(err: unknown, step: 'check' | 'download'): string {
  const code = (err as { code?: string } | undefined)?.code;
  const detail = err instanceof Error ? err.message.split('\n')[0] : String(err);
  if (code === 'ERR_CHECKSUM_MISMATCH') {
    return `The downloaded update does not match the checksum in the update metadata and was thrown away; it is downloaded again at the next check (${detail}).`;
  }
  if (code === 'ERR_UPDATE_SIGNATURE') {
    return `${detail} This version keeps running; the update is downloaded and checked again at the next check.`;
  }
  if (step === 'check') return "The update server could not be asked for updates; the app tries again at the next check. The app's log names the server and the error.";
  return "The update could not be downloaded; it is downloaded again at the next check. The app's log names the server and the error.";
}

/**
 * Checks for updates when started and every `checkEveryHours`, downloads in the
 * background, and installs a downloaded update only when `installDecision`
 * allows it. One check at a time; a failure waits for the next regular check.
 */
export function createUpdateSchedule(deps: UpdateScheduleDeps) {
  const { updater, settings, clock, logger } = deps;
  const timers: Timers = deps.timers ?? { setInterval: (cb, ms) => setInterval(cb, ms).unref(), clearInterval: (h) => clearInterval(h as NodeJS.Timeout) };
  const everyMs = settings.checkEveryHours * 3_600_000;
  let status: UpdateStatus = { state: 'idle', currentVersion: deps.currentVersion, availableVersion: null, lastCheckAt: null, message: null };
  let nextCheckAt = 0;
  let running: Promise<void> | undefined;
  let handle: unknown;

  const set = (change: Partial<UpdateStatus>) => {
    status = { ...status, ...change };
  };

  const installIfAllowed = () => {
    if (status.state !== 'waiting') return;
    const decision = installDecision(deps.activity(), clock.now(), settings.nightHour);
    if (!decision.install) return;
    set({ state: 'installing' });
    logger.info({ version: status.availableVersion, reason: decision.reason }, 'installing the downloaded update; the app restarts');
    // Silent, and the app starts again on the new version once installed.
    updater.quitAndInstall(true, true);
  };

  const check = async () => {
    nextCheckAt = clock.now().getTime() + everyMs;
    set({ state: 'checking', lastCheckAt: clock.now().toISOString() });
    let step: 'check' | 'download' = 'check';
    try {
      const result = await updater.checkForUpdates();
      if (!result?.isUpdateAvailable) {
        set({ state: 'idle', availableVersion: null, message: null });
        return;
      }
      step = 'download';
      set({ state: 'downloading', availableVersion: result.updateInfo.version, message: null });
      logger.info({ version: result.updateInfo.version }, 'downloading an update');
      await updater.downloadUpdate();
      set({ state: 'waiting' });
      installIfAllowed();
    } catch (err) {
      const message = describeFailure(err, step);
      set({ state: 'failed', message });
      logger.warn({ err, updateServer: settings.url }, message);
    }
  };

  updater.on('error', (err) => {
    if (status.state !== 'installing') return;
    const message = `The update could not be installed; the app keeps running this version and tries again after the next check (${err.message.split('\n')[0]}).`;
    set({ state: 'failed', message });
    logger.warn({ err }, message);
  });

  const tick = () => {
    if (running || status.state === 'installing') return;
    if (status.state === 'waiting') return installIfAllowed();
    if (clock.now().getTime() < nextCheckAt) return;
    running = check().finally(() => {
      running = undefined;
    });
  };

  return {
    /** Checks at once, then keeps to the schedule. */
    start(): void {
      handle = timers.setInterval(tick, TICK_MS);
      tick();
    },
    stop(): void {
      if (handle !== undefined) timers.clearInterval(handle);
      handle = undefined;
    },
    /** Resolves when the check under way (if any) has ended. */
    settled: (): Promise<void> => running ?? Promise.resolve(),
    /** The kiosk reported a change: a waiting update may install now. */
    activityChanged: (): void => installIfAllowed(),
    status: (): UpdateStatus => status,
  };
}

export type UpdateSchedule = ReturnType<typeof createUpdateSchedule>;
