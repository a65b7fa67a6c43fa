import type { Logger } from 'pino';
import type { Clock } from '../services/clock.js';
import type { ProductListener } from '../services/products.js';
import type { Services } from '../services/index.js';
import type { Db } from '../storage/database.js';
import type { SyncConfig, SyncConfigStore } from './config-store.js';
import type { IdMap } from './id-map.js';
import { holdLease } from './lease.js';
import type { OutboxQueue } from './outbox-queue.js';
import { pullTargets } from './pull-targets.js';
import { pullCatalog } from './pull.js';
import { pushPending } from './push.js';
import type { Verdict } from './retry-policy.js';
import type { Upstream } from './upstream.js';

/** What one round did, as `sync run` prints it. */
export interface RoundReport {
  /** Whether the upstream was reached and took the round to its end. */
  reached: boolean;
  pushed: number;
  parked: number;
  pending: number;
  pulled: number;
  /** Why the round ended early: a closed set. */
  failure: 'off' | 'busy' | 'refused' | 'offline' | 'stopped' | undefined;
  /** For `offline`: how long the upstream asked to wait (`Retry-After`), in milliseconds. */
  retryAfterMs: number | undefined;
}

export interface RoundDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  services: Services;
  configs: SyncConfigStore;
  queue: OutboxQueue;
  ids: IdMap;
  imagePath: (file: string) => string | undefined;
  productListeners: ProductListener[];
  upstreamFor: (config: SyncConfig) => Upstream;
  /** Names this process as the holder of a round's lease. */
  owner: string;
  /** Length of a round's lease in milliseconds; default `LEASE_MS`. */
  leaseMs?: number | undefined;
}

/** One full round for an organization: push everything pushable, then pull the catalog. */
export async function runRound(
  deps: RoundDeps,
  orgId: string,
  options: { keepGoing?: () => boolean; onProgress?: (pushed: number) => void } = {},
): Promise<RoundReport> {
  const { configs, queue, clock } = deps;
  const asked = options.keepGoing ?? (() => true);
  const started = Date.now();
  const report: RoundReport = { reached: false, pushed: 0, parked: 0, pending: 0, pulled: 0, failure: undefined, retryAfterMs: undefined };
  const finish = () => ({ ...report, pending: queue.counts(orgId).pending });
  const config = configs.get(orgId);
  if (!config) return { ...finish(), failure: 'off' };
  const lease = holdLease(configs, clock, orgId, deps.owner, deps.leaseMs);
  if (!lease) return { ...finish(), failure: 'busy' };
  const keepGoing = () => lease.held() && asked();
  const stop = (verdict: Extract<Verdict, { kind: 'retry' | 'refused' | 'park' }>) => {
    report.failure = verdict.kind === 'refused' ? 'refused' : 'offline';
    report.retryAfterMs = verdict.kind === 'retry' ? verdict.retryAfterMs : undefined;
    configs.setState(orgId, report.failure, verdict.message);
  };
  try {
    const upstream = deps.upstreamFor(config);
    configs.setState(orgId, 'pushing');
    const push = await pushPending({ ...deps, orgId, upstream, keepGoing, onProgress: options.onProgress });
    report.pushed = push.pushed;
    report.parked = push.parked;
    if (!keepGoing()) return (configs.setState(orgId, 'idle'), { ...finish(), failure: 'stopped' });
    if (push.stoppedBy) return (stop(push.stoppedBy), finish());
    configs.recordPush(orgId, clock.now().toISOString());
    configs.setState(orgId, 'pulling');
    const withBlocked = deps.services.stores.organizations.get(orgId)?.features.includes('identity-logs') ?? false;
    const targets = pullTargets(deps.services.stores, withBlocked);
    // The local catalog reflects the upstream as of the start of the pull.
    const pullStartedAt = clock.now().toISOString();
    const pull = await pullCatalog({ ...deps, orgId, upstream, targets, keepGoing });
    report.pulled = pull.pulled;
    if (!keepGoing()) return (configs.setState(orgId, 'idle'), { ...finish(), failure: 'stopped' });
    if (pull.stoppedBy) return (stop(pull.stoppedBy), finish());
    configs.recordPull(orgId, pullStartedAt);
    configs.setState(orgId, 'idle', null);
    report.reached = true;
    return finish();
  } catch (err) {
    // A local failure (disk full, a record the upstream sent that cannot be stored): retried with backoff, visible in GET /sync.
    deps.logger.error({ err, orgId }, 'sync round failed');
    configs.setState(orgId, 'offline', `sync round failed: ${(err as Error).message}`);
    return { ...finish(), failure: 'offline' };
  } finally {
    lease.release();
    const { pushed, parked, pulled, failure } = report;
    deps.logger.info({ orgId, pushed, parked, pulled, failure, ms: Date.now() - started }, 'sync round');
  }
}
