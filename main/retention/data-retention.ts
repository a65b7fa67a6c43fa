import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../services/clock.js';
import { withoutFsync, type Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { mailQueueOf } from '../mail/queue-mail.js';
import { createAlertStore } from '../storage/alerts.js';
import { createPurgeStore, SOFT_DELETED_TABLES } from '../storage/purges.js';

const DAY_MS = 86_400_000;

/** How long settled data is kept, in days; see docs/sync.md, "Retention". */
export interface RetentionSettings {
  /** `OUTBOX_RETENTION_DAYS`: pushed outbox entries, counted from their push; a hub's own unsent entries, from their write. */
  outboxDays: number;
  /** `DELETED_RETENTION_DAYS`: soft-deleted catalog rows, counted from their deletion; also how far back the change feeds reach. */
  deletedDays: number;
  /** `SYNCED_ORDER_RETENTION_DAYS`: orders of an organization with an upstream (which keeps them), counted from the sale. */
  syncedOrderDays: number;
}

export const DEFAULT_RETENTION: RetentionSettings = { outboxDays: 30, deletedDays: 90, syncedOrderDays: 400 };

/** Sent and failed mails are kept this long, counted from their queuing; queued ones until they are sent or refused. */
export const MAIL_KEPT_DAYS = 90;

/** Ended alerts are kept as long as the mails that told of them, counted from their end; open ones until they end. */
export const ALERTS_KEPT_DAYS = MAIL_KEPT_DAYS;

/**
 * Rows deleted per transaction. 500 rows of the largest kind (a pushed
 * order's outbox entry with its lines) take about 5 ms, so a purge of any
 * size leaves the API answering between its batches.
 */
export const PURGE_BATCH = 500;

/** What one purge deleted, per kind, and how it went. */
export interface PurgeReport {
  outbox: number;
  answers: number;
  deleted: number;
  orders: number;
  /** Sent and failed mails older than `MAIL_KEPT_DAYS`. */
  mail: number;
  /** Alerts that ended more than `ALERTS_KEPT_DAYS` ago. */
  alerts: number;
  /** Transactions it took. */
  batches: number;
  /** The most rows one of them deleted. */
  largestBatch: number;
}

/**
 * The purges that keep a database of years of running bounded: pushed outbox
 * entries and a hub's own entries that nothing will push, kept answers whose time is up or whose store acknowledged them,
 * soft-deleted catalog rows, and old orders of an organization whose upstream
 * keeps them. Each runs in batches of `PURGE_BATCH` rows, one transaction
 * each, with a turn of the event loop between two.
 */
export function createDataRetention(deps: {
  db: Db;
  clock: Clock;
  settings?: Partial<RetentionSettings> | undefined;
  batch?: number;
  /** The server's group commit: the next batch waits until the last one is on disk, flushed off the event loop. */
  groups?: Pick<GroupCommit, 'committed'> | undefined;
}) {
  const store = createPurgeStore(deps.db);
  const alerts = createAlertStore(deps.db);
  const settings = { ...DEFAULT_RETENTION, ...deps.settings };
  const limit = deps.batch ?? PURGE_BATCH;

  return {
    settings,
    /** Runs every purge; `keepGoing` false stops it before its next batch (the server shutting down). */
    async purge(keepGoing: () => boolean = () => true): Promise<PurgeReport> {
      const now = deps.clock.now().getTime();
      const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
      const report: PurgeReport = { outbox: 0, answers: 0, deleted: 0, orders: 0, mail: 0, alerts: 0, batches: 0, largestBatch: 0 };
      const drain = async (kind: 'outbox' | 'answers' | 'deleted' | 'orders' | 'mail' | 'alerts', batch: () => number) => {
        while (keepGoing()) {
          // A purge lost to a power cut is simply made again: its batches need no fsync of their own on the event loop.
          const count = withoutFsync(deps.db, batch);
          // Paced by the disk: between two batches the WAL is checkpointed, in slices that never hold the event loop long.
          await deps.groups?.committed();
          report[kind] += count;
          report.batches += 1;
          report.largestBatch = Math.max(report.largestBatch, count);
          await nextTurn();
          if (count < limit) return;
        }
      };
      const outboxCutoff = before(settings.outboxDays);
      await drain('outbox', () => store.pushedOutbox(outboxCutoff, limit));
      for (const orgId of store.hubs()) await drain('outbox', () => store.hubUnsent(orgId, outboxCutoff, limit));
      const nowIso = new Date(now).toISOString();
      await drain('answers', () => store.expiredAnswers(nowIso, limit));
      for (const { orgId, sender, below } of store.senders()) {
        await drain('answers', () => store.acknowledgedAnswers(orgId, sender, below, limit));
      }
      const deletedCutoff = before(settings.deletedDays);
      for (const table of SOFT_DELETED_TABLES) await drain('deleted', () => store.softDeleted(table, deletedCutoff, limit));
      const orderCutoff = before(settings.syncedOrderDays);
      for (const orgId of store.syncedOrganizations()) await drain('orders', () => store.oldOrders(orgId, orderCutoff, limit));
      const mailCutoff = before(MAIL_KEPT_DAYS);
      await drain('mail', () => mailQueueOf(deps.db).purgeSettled(mailCutoff, limit));
      const alertCutoff = before(ALERTS_KEPT_DAYS);
      await drain('alerts', () => alerts.purgeEnded(alertCutoff, limit));
      return report;
    },
    /** The size of the database file, and when the server plans its next purge (undefined when none is planned). */
    state(): { databaseBytes: number; nextPurgeAt: string | undefined } {
      return { databaseBytes: store.databaseBytes(), nextPurgeAt: store.nextPurgeAt() };
    },
    planNext(at: string): void {
      store.setNextPurgeAt(at);
    },
  };
}

export type DataRetention = ReturnType<typeof createDataRetention>;
