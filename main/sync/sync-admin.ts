import type { ParkedEntry, SyncStatus } from '../../shared/api/sync.js';
import type { Clock } from '../services/clock.js';
import { BadRequest, NotFound } from '../services/errors.js';
import type { OrganizationStore } from '../storage/organizations.js';
import { DEFAULT_FULL_INTERVAL_SECONDS, DEFAULT_PULL_INTERVAL_SECONDS, type SyncConfigStore } from './config-store.js';
import type { OutboxQueue } from './outbox-queue.js';
import { upstreamUrlProblem } from './upstream-url.js';

export const DEFAULT_INTERVAL_SECONDS = 30;

/** Whole seconds within `[min, max]`, or a 400 naming the option. */
function seconds(option: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new BadRequest(`${option}: must be whole seconds from ${min} to ${max}`);
  return value;
}

/** Sync settings and the parked queue, as the CLI and `GET /sync` see them. The upstream key never leaves. */
export function createSyncAdmin(deps: {
  configs: SyncConfigStore;
  queue: OutboxQueue;
  organizations: OrganizationStore;
  clock: Clock;
  /** Hosts a plain http:// upstream may have besides loopback (`SYNC_ALLOW_HTTP_HOSTS`). */
  allowHttpHosts?: readonly string[] | undefined;
  /** The database's size and the server's purge schedule, shown beside the queue. */
  storage: { databaseBytes(): number; nextPurgeAt(): string | undefined };
}) {
  const { configs, queue } = deps;
  const mustExist = (orgId: string) => {
    if (!deps.organizations.get(orgId)) throw new NotFound('Organization', orgId);
  };
  const entryId = (value: string): number => {
    if (!/^\d+$/.test(value)) throw new BadRequest(`entry id must be a whole number as \`sync status\` lists it, not ${JSON.stringify(value)}`);
    return Number(value);
  };

  return {
    configure(
      orgId: string,
      settings: { url: string; key: string; intervalSeconds?: number | undefined; pullIntervalSeconds?: number | undefined; fullIntervalSeconds?: number | undefined },
    ) {
      mustExist(orgId);
      let url: URL;
      try {
        url = new URL(settings.url);
      } catch {
        throw new BadRequest(`--url: ${JSON.stringify(settings.url)} is not an absolute URL; give the upstream base URL incl. /api/v1`);
      }
      const problem = upstreamUrlProblem(url, deps.allowHttpHosts ?? []);
      if (problem) throw new BadRequest(`--url: ${problem}`);
      if (settings.key.trim() === '') throw new BadRequest('--key: the upstream write key must not be empty');
      const interval = seconds('--interval', settings.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS, 1, 86_400);
      const pullInterval = seconds('--pull-interval', settings.pullIntervalSeconds ?? DEFAULT_PULL_INTERVAL_SECONDS, 1, 86_400);
      const fullInterval = seconds('--full-interval', settings.fullIntervalSeconds ?? DEFAULT_FULL_INTERVAL_SECONDS, 1, 2_592_000);
      const upstream = url.toString().replace(/\/+$/, '');
      configs.configure(
        orgId,
        { url: upstream, key: settings.key.trim(), intervalSeconds: interval, pullIntervalSeconds: pullInterval, fullIntervalSeconds: fullInterval },
        deps.clock.now().toISOString(),
      );
      return { configured: true as const, upstream, interval, pullInterval, fullInterval };
    },
    disable(orgId: string) {
      mustExist(orgId);
      configs.disable(orgId);
      return { configured: false as const };
    },
    status(orgId: string): SyncStatus {
      mustExist(orgId);
      const config = configs.get(orgId);
      const counts = queue.counts(orgId);
      return {
        configured: config !== undefined,
        upstream: config?.upstreamUrl ?? null,
        state: config?.state ?? 'off',
        pending: counts.pending,
        parked: counts.parked,
        lastPushAt: config?.lastPushAt ?? null,
        lastPullAt: config?.lastPullAt ?? null,
        lastFullPullAt: config?.lastFullPullAt ?? null,
        lastError: config?.lastError ?? null,
        oldestPendingAt: counts.oldestPendingAt ?? null,
        databaseBytes: deps.storage.databaseBytes(),
        nextPurgeAt: deps.storage.nextPurgeAt() ?? null,
      };
    },
    parked(orgId: string): ParkedEntry[] {
      return queue.parked(orgId);
    },
    retry(orgId: string, entry: string | 'all') {
      mustExist(orgId);
      return { retried: queue.retry(orgId, entry === 'all' ? 'all' : entryId(entry)) };
    },
    discard(orgId: string, entry: string) {
      mustExist(orgId);
      const discarded = queue.discard(orgId, entryId(entry), deps.clock.now().toISOString());
      if (discarded === 0) throw new BadRequest(`entry ${entry} is not a parked entry of organization ${orgId}; only parked entries can be discarded`);
      return { discarded };
    },
  };
}

export type SyncAdmin = ReturnType<typeof createSyncAdmin>;
