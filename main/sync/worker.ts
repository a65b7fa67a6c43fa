import type { SyncConfig } from './config-store.js';
import { fullPullJitterMs } from './full-pull-jitter.js';
import { DEFAULT_BACKOFF, backoffDelay, type BackoffOptions } from './retry-policy.js';
import type { RoundDeps, RoundKind } from './round-deps.js';
import { runRound, type RoundReport } from './round.js';

/** Timer functions, injected so tests can drive the worker without waiting on real time. */
export interface Timers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface SyncWorkerOptions {
  /** How often the worker looks for due rounds, in milliseconds; default 1,000. */
  tickMs?: number;
  /** Delay between a local write and the push it triggers, in milliseconds; default 200. */
  debounceMs?: number;
  backoff?: BackoffOptions;
  random?: () => number;
  timers?: Timers;
  /** Called when `stop()` begins, before waiting for the running rounds. */
  onStop?: () => void;
}

interface OrgState {
  /** Epoch milliseconds of the next push; a local write brings it forward. */
  nextPushAt: number;
  /** Epoch milliseconds of the next pull (0: at once, as after a start). */
  nextPullAt: number;
  /** While the upstream is unreachable: no round of any kind before this (the backoff). */
  retryAt: number;
  /** Failed rounds in a row (upstream not reachable), for the backoff. */
  failures: number;
  /** A local write asked for a push while a round ran or the backoff lasted: push again soon after either. */
  requested: boolean;
  running: Promise<RoundReport> | undefined;
}

/**
 * Runs rounds for every configured organization inside the server, on two
 * cadences: a push soon after a local write (and every `interval` while
 * anything waits), and a pull of what changed every `pullInterval`, which
 * reads the whole catalog when `fullInterval` and this installation's share
 * of the jitter window have passed since the last full one. Jittered backoff while the upstream is unreachable, and a round at
 * once when `sync run` asks. One round at a time per organization (`flush`
 * returns the running one).
 */
export function createSyncWorker(deps: RoundDeps, options: SyncWorkerOptions = {}) {
  const tickMs = options.tickMs ?? 1000;
  const debounceMs = options.debounceMs ?? 200;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const random = options.random ?? Math.random;
  const timers: Timers = options.timers ?? { setInterval: (cb, ms) => setInterval(cb, ms).unref(), clearInterval: (h) => clearInterval(h as NodeJS.Timeout) };
  const orgs = new Map<string, OrgState>();
  let handle: unknown;
  let stopped = false;
  const now = () => deps.clock.now().getTime();
  const stateOf = (orgId: string): OrgState => {
    let state = orgs.get(orgId);
    if (!state) orgs.set(orgId, (state = { nextPushAt: 0, nextPullAt: 0, retryAt: 0, failures: 0, requested: false, running: undefined }));
    return state;
  };

  /**
   * A pull reads everything when the last full one is older than the full
   * interval plus this installation's own delay (or there was none).
   */
  const pullKind = (orgId: string): RoundKind => {
    const config = deps.configs.get(orgId);
    if (!config?.lastFullPullAt) return 'full';
    const dueMs = config.fullIntervalSeconds * 1000 + fullPullJitterMs(deps.installation.get().id, config.fullIntervalSeconds);
    return now() - Date.parse(config.lastFullPullAt) >= dueMs ? 'full' : 'changes';
  };

  const flush = (
    orgId: string,
    options: { kind?: RoundKind; wholeWithoutFeed?: boolean; onProgress?: (pushed: number) => void } = {},
  ): Promise<RoundReport> => {
    const state = stateOf(orgId);
    if (state.running) return state.running;
    state.requested = false;
    const kind = options.kind ?? pullKind(orgId);
    const round = runRound(deps, orgId, { ...options, kind, keepGoing: () => !stopped }).then((report) => {
      const config = deps.configs.get(orgId);
      if (report.failure === 'offline') {
        // A round that got something through found the line up: start the backoff over.
        state.failures = report.pushed + report.pulled > 0 ? 1 : state.failures + 1;
        state.retryAt = now() + backoffDelay(state.failures, random(), backoff, report.retryAfterMs);
      } else if (report.failure !== 'busy') {
        state.failures = 0;
        state.retryAt = 0;
        state.nextPushAt = now() + (state.requested ? debounceMs : (config?.intervalSeconds ?? 30) * 1000);
        state.requested = false;
        if (kind !== 'push' && report.failure === undefined) state.nextPullAt = now() + (config?.pullIntervalSeconds ?? 60) * 1000;
      }
      return report;
    });
    state.running = round.finally(() => {
      state.running = undefined;
    });
    return state.running;
  };

  const answerRequest = async (config: SyncConfig, requestedAt: string) => {
    if (!deps.configs.takeRunRequest(config.orgId, requestedAt)) return;
    const running = stateOf(config.orgId).running;
    if (running) await running.catch(() => undefined);
    const report = await flush(config.orgId, { kind: config.runRequestedFull ? 'full' : 'changes', wholeWithoutFeed: true });
    deps.configs.recordRequestedRound(config.orgId, requestedAt, report);
  };

  const tick = () => {
    if (stopped) return;
    for (const config of deps.configs.list()) {
      if (config.runRequestedAt) {
        answerRequest(config, config.runRequestedAt).catch((err: unknown) => deps.logger.error({ err, orgId: config.orgId }, 'sync round failed'));
        continue;
      }
      const state = stateOf(config.orgId);
      if (state.running || config.state === 'refused' || now() < state.retryAt) continue;
      const pullDue = now() >= state.nextPullAt;
      if (!pullDue && !state.requested && now() < state.nextPushAt) continue;
      flush(config.orgId, pullDue ? {} : { kind: 'push' }).catch((err: unknown) => deps.logger.error({ err, orgId: config.orgId }, 'sync round failed'));
    }
  };

  return {
    start(): void {
      deps.configs.resetBusyStates();
      handle = timers.setInterval(tick, tickMs);
    },
    /** One round now for the organization, or the one already running. */
    flush,
    /**
     * After a local write: a push soon (never a pull). A write during a round,
     * or while the worker waits out the backoff, is pushed by a round after
     * it (after the backoff), never left for the next interval.
     */
    schedule(orgId: string): void {
      const state = stateOf(orgId);
      if (state.running || state.failures > 0) state.requested = true;
      else state.nextPushAt = Math.min(state.nextPushAt, now() + debounceMs);
    },
    /** Ends the rounds at their next step and waits for them; call before closing the database. */
    async stop(): Promise<void> {
      stopped = true;
      if (handle !== undefined) timers.clearInterval(handle);
      options.onStop?.();
      await Promise.all([...orgs.values()].map((state) => state.running?.catch(() => undefined)));
    },
  };
}

export type SyncWorker = ReturnType<typeof createSyncWorker>;
