import type { SyncConfig } from './config-store.js';
import { sendHeartbeat } from './heartbeat.js';
import { holdLease } from './lease.js';
import { pullTargets } from './pull-targets.js';
import { pullCatalog } from './pull.js';
import type { PullPlan } from './pull-walk.js';
import { pushPending } from './push.js';
import type { Verdict } from './retry-policy.js';
import type { RoundDeps, RoundKind } from './round-deps.js';
import { createRoundState } from './round-state.js';
import type { Upstream } from './upstream.js';
import { readUpstreamOffer } from './upstream-offer.js';

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

export interface RoundOptions {
  kind?: RoundKind;
  /** For `changes`: read a collection without a change feed whole (`sync run` asks for what changed, whatever it costs). */
  wholeWithoutFeed?: boolean;
  keepGoing?: () => boolean;
  onProgress?: (pushed: number) => void;
}

/** One round for an organization: push everything pushable, then, unless `kind` is `push`, pull. */
export async function runRound(deps: RoundDeps, orgId: string, options: RoundOptions = {}): Promise<RoundReport> {
  const kind = options.kind ?? 'changes';
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
  const state = createRoundState(configs, orgId, config.state);
  const stopped = () => {
    // Why, in the log: a round cut short otherwise leaves no trace of what ended it.
    const why = lease.held() ? 'the server is shutting down' : 'another process took over its lease';
    deps.logger.warn({ orgId, why }, 'sync round stopped before its end');
    configs.setState(orgId, 'idle');
    return { ...finish(), failure: 'stopped' as const };
  };
  let direct: Upstream | undefined;
  try {
    direct = deps.upstreamFor(config);
    const upstream = state.watch(direct);
    state.enter('pushing');
    const push = await pushPending({ ...deps, orgId, upstream, feedMarks: config.feedMarks, keepGoing, onProgress: options.onProgress });
    report.pushed = push.pushed;
    report.parked = push.parked;
    if (!keepGoing()) return stopped();
    if (push.stoppedBy) return (stop(push.stoppedBy), finish());
    configs.recordPush(orgId, clock.now().toISOString());
    if (kind !== 'push') {
      state.enter('pulling');
      // The local catalog reflects the upstream as of the start of the pull.
      const pullStartedAt = clock.now().toISOString();
      const offer = await upstreamOffer(deps, config, upstream, kind === 'full');
      if (!keepGoing()) return stopped();
      if ('stoppedBy' in offer) return (stop(offer.stoppedBy), finish());
      const withBlocked = deps.services.stores.organizations.get(orgId)?.features.includes('identity-logs') ?? false;
      const targets = pullTargets(deps.services.stores, withBlocked);
      const plan: PullPlan = { mode: kind, wholeWithoutFeed: options.wholeWithoutFeed ?? false, offer: offer.offer, marks: config.feedMarks };
      const pull = await pullCatalog({ ...deps, orgId, upstream, upstreamUrl: config.upstreamUrl, targets, plan, keepGoing });
      report.pulled = pull.pulled;
      if (!keepGoing()) return stopped();
      if (pull.stoppedBy) return (stop(pull.stoppedBy), finish());
      configs.recordPull(orgId, pullStartedAt, { full: kind === 'full', marks: pull.marks });
    }
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
    // Also after a round the upstream cut short (a sale it keeps failing is what head office must see).
    // Not awaited: the report never holds up the next round, and the sale behind it.
    const told = report.reached || failure === 'offline';
    // Past the round's state: its answer must not show the round's phase again.
    if (direct && told && deps.offers.get(orgId)?.offer.fleet) void sendHeartbeat(deps, orgId, direct, kind);
  }
}

/** What the upstream offers, from the cache unless it is unknown, names another URL, or `fresh` asks to read it again. */
async function upstreamOffer(deps: RoundDeps, config: SyncConfig, upstream: Upstream, fresh: boolean) {
  const cached = deps.offers.get(config.orgId);
  if (!fresh && cached?.url === config.upstreamUrl) return { offer: cached.offer };
  const read = await readUpstreamOffer(upstream, deps.clock);
  if ('offer' in read) deps.offers.set(config.orgId, { url: config.upstreamUrl, offer: read.offer });
  return read;
}
