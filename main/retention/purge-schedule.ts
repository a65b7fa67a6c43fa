import type { Logger } from 'pino';
import type { Clock } from '../services/clock.js';
import type { DataRetention } from './data-retention.js';

/**
 * Every hour: the purges are batched and reach only what they delete, so an
 * hourly run of a busy upstream (a day's kept answers of 1,000 stores are
 * millions of rows) deletes an hour's worth instead of a day's at once.
 */
export const PURGE_INTERVAL_MS = 3_600_000;

/**
 * Runs the data purge shortly after start-up (a store PC may be switched off
 * every night) and then every `intervalMs`, one run at a time, and notes when
 * the next one is due for `GET /sync`. Returns the function that stops it
 * (after the batch under way).
 */
export function startPurgeSchedule(retention: DataRetention, clock: Clock, logger: Logger, intervalMs = PURGE_INTERVAL_MS): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> | undefined;
  const planNext = () => {
    try {
      retention.planNext(new Date(clock.now().getTime() + intervalMs).toISOString());
    } catch (err) {
      logger.error({ err }, 'noting the time of the next purge failed');
    }
  };
  const purge = async () => {
    planNext();
    try {
      const report = await retention.purge(() => !stopped);
      if (report.outbox + report.answers + report.deleted + report.orders > 0) logger.info(report, 'purged data past its retention');
    } catch (err) {
      // A full or read-only disk must not stop the server; the next run tries again.
      logger.error({ err }, 'purging data past its retention failed');
    }
  };
  const run = () => {
    if (stopped || running) return;
    running = purge().finally(() => (running = undefined));
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  setImmediate(run);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
