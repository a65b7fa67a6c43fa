import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Heartbeat } from '../../shared/api/fleet.js';
import { readSystemInfo } from '../system/storage-info.js';
import { VERSION } from '../version.js';
import { DEFAULT_PULL_INTERVAL_SECONDS } from './config-store.js';
import type { RoundDeps, RoundKind } from './round-deps.js';
import type { Upstream } from './upstream.js';

/** Time allowed for a heartbeat: short, it is only a report. */
export const HEARTBEAT_TIMEOUT_MS = 5_000;
/** Stores with a sale in this many days are the stores the PC serves. */
const SERVED_DAYS = 30;

/** The store PC's state now, as `POST /fleet/heartbeat` takes it. Reads the database before its first await. */
async function buildHeartbeat(deps: RoundDeps, orgId: string, counts: ReturnType<RoundDeps['queue']['counts']>): Promise<Heartbeat> {
  const config = deps.configs.get(orgId);
  const since = new Date(deps.clock.now().getTime() - SERVED_DAYS * 86_400_000).toISOString();
  // A store whose creation has not reached the upstream yet has no id there.
  const upstreamStore = (id: string) => deps.ids.upstreamOf(orgId, 'store', id) ?? (deps.queue.hasUnpushedCreate(orgId, 'store', id) ? undefined : id);
  const stores = deps.sales
    .storesSince(orgId, since)
    .map(upstreamStore)
    .filter((id): id is string => id !== undefined);
  const alerts = deps.device
    .alerts(orgId)
    .map((alert) => ({ ...alert, store: upstreamStore(alert.store), detail: alert.detail.slice(0, 500) }))
    .filter((alert): alert is typeof alert & { store: string } => alert.store !== undefined);
  const facts = {
    device: deps.installation.get().id,
    name: deps.device.name.slice(0, 100) || 'store PC',
    version: VERSION,
    stores: stores.slice(0, 50),
    lastPushAt: config?.lastPushAt ?? null,
    lastPullAt: config?.lastPullAt ?? null,
    pending: counts.pending,
    parked: counts.parked,
    oldestPendingAt: counts.oldestPendingAt ?? null,
    lastSaleAt: deps.sales.lastSaleAt(orgId),
    printers: deps.device.printers(orgId).slice(0, 20),
    alerts: alerts.slice(0, 100),
    mailsAlerts: deps.device.mailsAlerts(orgId),
  };
  const system = await readSystemInfo(deps.db.name, VERSION).catch(() => undefined);
  return { ...facts, diskFreeBytes: system?.diskFreeBytes ?? null, databaseBytes: system?.databaseBytes ?? null };
}

/**
 * After a round with an upstream offering `POST /fleet/heartbeat`: tells it
 * this PC's state. A round that pulls always does (so at least every pull
 * interval); a push round (after a sale) only when the parked count changed
 * or no report went for a pull interval (the pulls failing). On a hub a
 * report per sale was a third of every call it answered. Never throws: a
 * failure is only logged.
 */
export async function sendHeartbeat(deps: RoundDeps, orgId: string, upstream: Upstream, kind: RoundKind): Promise<void> {
  try {
    // A task of its own: counting a backlog of parked entries is not added to the end of the round.
    await nextTurn();
    const last = deps.heartbeats.get(orgId);
    const now = deps.clock.now().getTime();
    const counts = deps.queue.counts(orgId);
    const parked = counts.parked;
    const pullIntervalMs = (deps.configs.get(orgId)?.pullIntervalSeconds ?? DEFAULT_PULL_INTERVAL_SECONDS) * 1000;
    if (kind === 'push' && last && last.parked === parked && now - last.at < pullIntervalMs) return;
    deps.heartbeats.set(orgId, { at: now, parked });
    const heartbeat = await buildHeartbeat(deps, orgId, counts);
    const result = await upstream.send({ method: 'POST', path: '/fleet/heartbeat', json: heartbeat, timeoutMs: HEARTBEAT_TIMEOUT_MS });
    if (result.kind === 'answer' && result.status < 300) return;
    deps.heartbeats.delete(orgId);
    const why = result.kind === 'answer' ? `answered ${result.status}` : result.message;
    deps.logger.info({ orgId, why }, 'fleet heartbeat not taken');
  } catch (err) {
    deps.logger.warn({ err, orgId }, 'fleet heartbeat failed');
  }
}
