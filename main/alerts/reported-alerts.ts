import type { AlertStore } from '../storage/alerts.js';

/**
 * The alerts a store PC reports to its upstream in its heartbeat: its open
 * alerts, less the ones about that upstream. A heartbeat that arrives proves
 * head office reached; its `upstream-unreachable` alert, not ended yet at that
 * moment, would reach the hub only to end at once. The hub knows that
 * condition as the PC's silence.
 */
export function reportedAlerts(alerts: Pick<AlertStore, 'open'>, orgId: string): { store: string; kind: string; since: string; detail: string }[] {
  return alerts
    .open(orgId)
    .filter((alert) => alert.alertedAt !== null && alert.kind !== 'upstream-unreachable' && alert.kind !== 'store-pc-silent')
    .map((alert) => ({ store: alert.store, kind: alert.kind, since: alert.since, detail: alert.detail }));
}
