import type { Logger } from 'pino';
import { SALE_RESEND_WINDOW_MS } from '../../shared/sales-journal.js';
import { DEFAULT_TIME_ZONE, localDate, nextDate } from '../../shared/time-zones.js';
import type { Clock } from '../services/clock.js';
import { createDailyMailMarkStore } from '../storage/daily-mail-marks.js';
import { immediateTransaction } from '../storage/transactions.js';
import { queueDailySales, type DailySalesSources } from './daily-sales-mails.js';

const DAY_MS = 86_400_000;

const previousDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);

/** `HH:MM` as milliseconds after midnight. */
const offsetOf = (at: string) => {
  const [hours, minutes] = at.split(':').map(Number) as [number, number];
  return (hours * 60 + minutes) * 60_000;
};

/**
 * The suppliers' daily sales mails on schedule: once `DAILY_MAIL_AT` passed
 * in every store's time zone, the day before is queued. Days missed while the
 * PC was off are caught up when it runs again, back to `SALE_RESEND_WINDOW_MS`;
 * an organization's first run queues only the day just ended.
 */
export function createDailyMailSchedule(deps: {
  sources: DailySalesSources;
  clock: Clock;
  logger: Logger;
  organizations: () => string[];
  /** `DAILY_MAIL_AT`, `HH:MM`. */
  at: string;
  /** Time between two looks; default a minute. */
  checkMs?: number | undefined;
}) {
  const marks = createDailyMailMarkStore(deps.sources.db);
  const offset = offsetOf(deps.at);
  let timer: NodeJS.Timeout | undefined;

  /** The latest day due in every store of the organization; undefined without stores. */
  const lastDueDay = (orgId: string, now: number): string | undefined => {
    let due: string | undefined;
    let afterId: string | undefined;
    for (;;) {
      const page = deps.sources.stores.page({ orgId, afterId, limit: 500 });
      for (const store of page) {
        const day = previousDate(localDate(now - offset, store.timeZone ?? DEFAULT_TIME_ZONE));
        if (due === undefined || day < due) due = day;
      }
      if (page.length < 500) return due;
      afterId = page[page.length - 1]!.id;
    }
  };

  function pass(): void {
    const now = deps.clock.now();
    const earliest = localDate(now.getTime() - SALE_RESEND_WINDOW_MS, 'UTC');
    for (const orgId of deps.organizations()) {
      const last = lastDueDay(orgId, now.getTime());
      if (last === undefined) continue;
      const mark = marks.get(orgId);
      let day = mark === undefined ? last : nextDate(mark);
      if (day < earliest) day = earliest;
      for (; day <= last; day = nextDate(day)) {
        const queued = queueDailySales(deps.sources, orgId, day, now);
        immediateTransaction(deps.sources.db, () => marks.set(orgId, day));
        if (queued > 0) deps.logger.info({ orgId, day, queued }, "suppliers' daily sales mails queued");
      }
    }
  }

  const run = () => {
    try {
      pass();
    } catch (err) {
      deps.logger.error({ err }, "queuing the suppliers' daily sales mails failed; tried again at the next look");
    }
  };

  return {
    start(): void {
      run();
      timer = setInterval(run, deps.checkMs ?? 60_000);
      timer.unref();
    },
    stop(): void {
      clearInterval(timer);
    },
    /** One look now. */
    check: run,
  };
}

export type DailyMailSchedule = ReturnType<typeof createDailyMailSchedule>;
