import type { Logger } from 'pino';
import type { PersonalDataRetention } from './personal-data.js';

const DAY_MS = 86_400_000;

/**
 * Runs the purge at start-up and then once a day while the server runs.
 * A store PC may be switched off every night, hence the run at start-up.
 * Returns the function that stops it.
 */
export function startDailyPurge(retention: PersonalDataRetention, logger: Logger, intervalMs = DAY_MS): () => void {
  let stopped = false;
  const run = () => {
    if (stopped) return;
    try {
      const purged = retention.purge();
      if (purged > 0) logger.info({ purged }, 'erased personal data of identity logs past their retention');
    } catch (err) {
      // A full or read-only disk must not stop the server; the next day tries again.
      logger.error({ err }, 'erasing personal data past its retention failed');
    }
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  setImmediate(run);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
