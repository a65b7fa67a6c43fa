import type { Logger } from 'pino';
import type { FollowPace } from './payment-settling.js';

/**
 * Work on money that nobody awaits, run now or after a pause that doubles with
 * each attempt up to the pace's longest, one timer per key. Once stopped (the
 * server shutting down, its database closed under a request still out), what
 * the work meets is dropped: the records stay open, and the next start
 * settles them.
 */
export function createFollowTimers(pace: FollowPace, logger: Logger, what: string) {
  const timers = new Map<string, NodeJS.Timeout>();
  let stopped = false;

  const unawaited = async (key: string, work: () => Promise<void>): Promise<void> => {
    try {
      await work();
    } catch (err) {
      if (!stopped) logger.error({ err, key }, `following a card ${what} failed`);
    }
  };

  return {
    unawaited,
    later(key: string, attempt: number, work: () => Promise<void>): void {
      if (stopped || timers.has(key)) return;
      const wait = Math.min(pace.firstMs * 2 ** attempt, pace.maxMs);
      timers.set(
        key,
        setTimeout(() => {
          timers.delete(key);
          void unawaited(key, work);
        }, wait),
      );
    },
    stop(): void {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
