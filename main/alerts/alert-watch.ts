import type { Logger } from 'pino';
import { DEFAULT_TIME_ZONE } from '../../shared/time-zones.js';
import { alertMail, languageOf } from '../mail/alert-texts.js';
import { mailAddresses } from '../mail/mail-address.js';
import { queueMail } from '../mail/queue-mail.js';
import { newId } from '../rules/ids.js';
import type { Clock } from '../services/clock.js';
import type { AlertRecord, AlertStore } from '../storage/alerts.js';
import type { Db } from '../storage/database.js';
import type { StoreStore } from '../storage/stores.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { Observation } from './alert-conditions.js';

/** At most one alert mail per condition and store within this time. */
export const ALERT_MAIL_SPACING_MS = 3_600_000;

export interface AlertWatchOptions {
  /** How long a condition lasts before it is an alert (`ALERT_AFTER_MS`). */
  alertAfterMs: number;
  /** Time between two looks at what the server knows; default 10 s. */
  checkMs: number;
  /** Time between two questions to each card terminal; default a minute. */
  terminalCheckMs: number;
}

export const DEFAULT_ALERT_WATCH: AlertWatchOptions = { alertAfterMs: 300_000, checkMs: 10_000, terminalCheckMs: 60_000 };

interface StoreView {
  id: string;
  name: string;
  adminMail: string | undefined;
  language: ReturnType<typeof languageOf>;
  timeZone: string;
}

const keyOf = (store: string, kind: string) => `${store}\n${kind}`;

/**
 * Turns conditions seen into alerts: a condition seen is remembered with its
 * start; once it lasted `alertAfterMs` it is an alert and, unless one of its
 * kind went to the store within the hour, an `alert` mail to the store's
 * `adminMail` is queued in the same transaction; when it is no longer seen,
 * it ends, with an `alert-resolved` mail after a mailed alert.
 */
export function createAlertWatch(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  alerts: AlertStore;
  stores: StoreStore;
  organizations: () => string[];
  /** What the server knows now, per organization. */
  observe: (orgId: string) => Promise<Observation[]>;
  /** The terminals' answers, asked less often. */
  observeTerminals: (orgId: string) => Promise<Observation[]>;
  /** False when this server leaves the organization's alert mails to its upstream (see `mailsAlertsItself`). */
  mailsAlerts: (orgId: string) => boolean;
  options?: Partial<AlertWatchOptions> | undefined;
}) {
  const options = { ...DEFAULT_ALERT_WATCH, ...deps.options };
  const terminalSeen = new Map<string, { at: number; seen: Observation[] }>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  const storesOf = (orgId: string): StoreView[] => {
    const all: StoreView[] = [];
    let afterId: string | undefined;
    for (;;) {
      const page = deps.stores.page({ orgId, afterId, limit: 500 });
      for (const store of page) {
        all.push({
          id: store.id,
          name: store.name,
          adminMail: mailAddresses(store.adminMail) ? store.adminMail : undefined,
          language: languageOf(store.languageMain),
          timeZone: store.timeZone ?? DEFAULT_TIME_ZONE,
        });
      }
      if (page.length < 500) return all;
      afterId = page[page.length - 1]!.id;
    }
  };

  const mail = (orgId: string, store: StoreView, alert: AlertRecord, now: Date, endedAt?: string) => {
    if (!store.adminMail) return;
    const words = alertMail({ kind: alert.kind, storeName: store.name, language: store.language, timeZone: store.timeZone, since: alert.since, detail: alert.detail, endedAt });
    queueMail(deps.db, {
      orgId,
      kind: endedAt === undefined ? 'alert' : 'alert-resolved',
      to: store.adminMail,
      subject: words.subject,
      text: words.text,
      headers: { 'X-Alert-Kind': alert.kind },
      onceKey: `${endedAt === undefined ? 'alert' : 'alert-resolved'}:${alert.id}`,
      at: now,
    });
  };

  function reconcile(orgId: string, seen: Observation[], now: Date): void {
    const stores = storesOf(orgId);
    const byId = new Map(stores.map((s) => [s.id, s]));
    const current = new Map<string, Observation & { store: string }>();
    for (const observation of seen) {
      const targets = observation.store === undefined ? stores.map((s) => s.id) : byId.has(observation.store) ? [observation.store] : [];
      for (const store of targets) {
        const key = keyOf(store, observation.kind);
        // Two sources of one condition (two PCs of a store, or a PC and this server): mailed here if any of them is not mailed elsewhere.
        const mailedElsewhere = observation.mailedElsewhere === true && (current.get(key)?.mailedElsewhere ?? true);
        current.set(key, { ...observation, store, mailedElsewhere });
      }
    }
    const nowIso = now.toISOString();
    const mailsHere = deps.mailsAlerts(orgId);
    immediateTransaction(deps.db, () => {
      const open = new Map(deps.alerts.open(orgId).map((a) => [keyOf(a.store, a.kind), a]));
      for (const [key, alert] of open) {
        const store = byId.get(alert.store);
        const still = current.get(key);
        if (!still || !store) {
          if (alert.alertedAt === null) deps.alerts.drop(alert.id);
          else {
            deps.alerts.markEnded(alert.id, nowIso);
            if (alert.mailed && store) mail(orgId, store, alert, now, nowIso);
          }
          continue;
        }
        if (alert.alertedAt === null && now.getTime() - Date.parse(alert.since) >= options.alertAfterMs) {
          const recent = deps.alerts.mailedSince(orgId, alert.store, alert.kind, new Date(now.getTime() - ALERT_MAIL_SPACING_MS).toISOString());
          const mailed = !recent && store.adminMail !== undefined && mailsHere && !still.mailedElsewhere;
          deps.alerts.markAlerted(alert.id, nowIso, mailed, still.detail);
          if (mailed) mail(orgId, store, { ...alert, detail: still.detail }, now);
        }
      }
      for (const [key, observation] of current) {
        if (open.has(key)) continue;
        const since = observation.since !== undefined && observation.since < nowIso ? observation.since : nowIso;
        deps.alerts.insert({ id: newId(), orgId, store: observation.store, kind: observation.kind, detail: observation.detail, since });
      }
    });
  }

  async function pass(): Promise<void> {
    for (const orgId of deps.organizations()) {
      const now = deps.clock.now();
      let terminals = terminalSeen.get(orgId);
      if (!terminals || Date.now() - terminals.at >= options.terminalCheckMs) {
        terminals = { at: Date.now(), seen: await deps.observeTerminals(orgId) };
        terminalSeen.set(orgId, terminals);
      }
      const seen = [...(await deps.observe(orgId)), ...terminals.seen];
      reconcile(orgId, seen, now);
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass()
        .catch((err: unknown) => deps.logger.error({ err }, 'looking for alert conditions failed; looked at again later'))
        .finally(() => {
          running = undefined;
          schedule();
        });
    }, options.checkMs);
    timer.unref();
  }

  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    /** One look now, for tests that step the clock and for the CLI. */
    check: pass,
    list: (orgId: string, limit = 200) => deps.alerts.list(orgId, limit),
  };
}

export type AlertWatch = ReturnType<typeof createAlertWatch>;
