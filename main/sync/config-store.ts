import { isSealed, type SecretBox } from '../security/secret-box.js';
import type { Db } from '../storage/database.js';

/** What the worker can be doing for one organization, as `GET /sync` reports it. */
export type SyncState = 'off' | 'idle' | 'pushing' | 'pulling' | 'offline' | 'refused';

export interface SyncConfig {
  orgId: string;
  upstreamUrl: string;
  /** The upstream write key: handed to the upstream client only, never printed, logged or returned. */
  upstreamKey: string;
  /** How often pending writes are pushed when no local write asked for a push sooner. */
  intervalSeconds: number;
  /** How often the worker pulls what changed upstream. */
  pullIntervalSeconds: number;
  /** How often the worker reads the whole upstream catalog to reconcile. */
  fullIntervalSeconds: number;
  configuredAt: string;
  state: Exclude<SyncState, 'off'>;
  lastPushAt: string | undefined;
  lastPullAt: string | undefined;
  lastFullPullAt: string | undefined;
  /** Per collection kind, the upstream's time from which the next change-feed walk starts. */
  feedMarks: FeedMarks;
  lastError: string | undefined;
  /** Set by `sync run` for the server's worker to pick up. */
  runRequestedAt: string | undefined;
  /** Whether that request was `sync run --full`. */
  runRequestedFull: boolean;
}

/**
 * Pull what changed every minute: a price changed at HQ is on the tills
 * within a minute, and a pull that finds nothing costs one small request per
 * collection (about 1 KB), some 5 requests a minute per store.
 */
export const DEFAULT_PULL_INTERVAL_SECONDS = 60;
/**
 * Read everything once a day: a safety net for what a feed cannot show (an
 * upstream whose clock was set back), and the only pull a v1-only upstream,
 * without a feed, gets on its own.
 */
export const DEFAULT_FULL_INTERVAL_SECONDS = 86_400;

/** Collection kind -> the upstream's `meta.completeUntil` of its last complete walk. */
export type FeedMarks = Partial<Record<string, string>>;

interface RawConfig {
  org_id: string;
  upstream_url: string;
  upstream_key: string;
  interval_seconds: number;
  pull_interval_seconds: number;
  full_interval_seconds: number;
  configured_at: string;
  state: SyncConfig['state'];
  last_push_at: string | null;
  last_pull_at: string | null;
  last_full_pull_at: string | null;
  feed_marks: string | null;
  last_error: string | null;
  run_requested_at: string | null;
  run_requested_full: number;
}

const fromRow = (row: RawConfig, secrets: SecretBox): SyncConfig => ({
  orgId: row.org_id,
  upstreamUrl: row.upstream_url,
  // Opened when a round needs it: `sync status` works where the key file cannot be opened.
  get upstreamKey() {
    return secrets.open(row.upstream_key);
  },
  intervalSeconds: row.interval_seconds,
  pullIntervalSeconds: row.pull_interval_seconds,
  fullIntervalSeconds: row.full_interval_seconds,
  configuredAt: row.configured_at,
  state: row.state,
  lastPushAt: row.last_push_at ?? undefined,
  lastPullAt: row.last_pull_at ?? undefined,
  lastFullPullAt: row.last_full_pull_at ?? undefined,
  feedMarks: row.feed_marks ? (JSON.parse(row.feed_marks) as FeedMarks) : {},
  lastError: row.last_error ?? undefined,
  runRequestedAt: row.run_requested_at ?? undefined,
  runRequestedFull: row.run_requested_full === 1,
});

/**
 * The `sync_config` table: a row exists exactly while sync is configured for
 * the organization. The upstream key is stored sealed by `secrets`.
 */
export function createSyncConfigStore(db: Db, secrets: SecretBox) {
  // A new configuration may name another upstream: its first pull reads everything again.
  const upsert = db.prepare(`
    INSERT INTO sync_config (org_id, upstream_url, upstream_key, interval_seconds, pull_interval_seconds, full_interval_seconds, configured_at, state)
    VALUES (@orgId, @url, @key, @interval, @pullInterval, @fullInterval, @now, 'idle')
    ON CONFLICT (org_id) DO UPDATE SET upstream_url = @url, upstream_key = @key, interval_seconds = @interval,
      pull_interval_seconds = @pullInterval, full_interval_seconds = @fullInterval,
      configured_at = @now, state = 'idle', last_error = NULL, feed_marks = NULL, last_full_pull_at = NULL`);
  const remove = db.prepare('DELETE FROM sync_config WHERE org_id = ?');
  const keys = db.prepare<[], { org_id: string; upstream_key: string }>('SELECT org_id, upstream_key FROM sync_config');
  const sealKey = db.prepare('UPDATE sync_config SET upstream_key = ? WHERE org_id = ? AND upstream_key = ?');
  const byOrg = db.prepare<[string], RawConfig>('SELECT * FROM sync_config WHERE org_id = ?');
  const all = db.prepare<[], RawConfig>('SELECT * FROM sync_config ORDER BY org_id');
  const setState = db.prepare('UPDATE sync_config SET state = ?, last_error = ? WHERE org_id = ?');
  const setStateOnly = db.prepare('UPDATE sync_config SET state = ? WHERE org_id = ?');
  const pushedAt = db.prepare('UPDATE sync_config SET last_push_at = ? WHERE org_id = ?');
  const pulledAt = db.prepare('UPDATE sync_config SET last_pull_at = @at, feed_marks = @marks WHERE org_id = @orgId');
  const fullPulledAt = db.prepare('UPDATE sync_config SET last_pull_at = @at, last_full_pull_at = @at, feed_marks = @marks WHERE org_id = @orgId');
  const resetBusy = db.prepare("UPDATE sync_config SET state = 'idle' WHERE state IN ('pushing', 'pulling')");
  const takeLease = db.prepare(
    'UPDATE sync_config SET lease_owner = @owner, lease_until = @until WHERE org_id = @orgId AND (lease_owner IS NULL OR lease_owner = @owner OR lease_until < @now)',
  );
  const leaseOwner = db.prepare<[string], { lease_owner: string | null }>('SELECT lease_owner FROM sync_config WHERE org_id = ?');
  const extendLease = db.prepare('UPDATE sync_config SET lease_until = ? WHERE org_id = ? AND lease_owner = ?');
  const dropLease = db.prepare('UPDATE sync_config SET lease_owner = NULL, lease_until = NULL WHERE org_id = ? AND lease_owner = ?');
  const requestRun = db.prepare('UPDATE sync_config SET run_requested_at = ?, run_requested_full = ? WHERE org_id = ?');
  const takeRequest = db.prepare('UPDATE sync_config SET run_requested_at = NULL WHERE org_id = ? AND run_requested_at = ?');
  const writeRound = db.prepare('UPDATE sync_config SET last_round = ? WHERE org_id = ?');
  const readRound = db.prepare<[string], { last_round: string | null }>('SELECT last_round FROM sync_config WHERE org_id = ?');
  const stealLease = db.prepare('UPDATE sync_config SET lease_owner = NULL WHERE org_id = ? AND lease_owner = ?');

  return {
    configure(
      orgId: string,
      settings: { url: string; key: string; intervalSeconds: number; pullIntervalSeconds?: number; fullIntervalSeconds?: number },
      now: string,
    ): void {
      upsert.run({
        orgId,
        url: settings.url,
        key: secrets.seal(settings.key),
        interval: settings.intervalSeconds,
        pullInterval: settings.pullIntervalSeconds ?? DEFAULT_PULL_INTERVAL_SECONDS,
        fullInterval: settings.fullIntervalSeconds ?? DEFAULT_FULL_INTERVAL_SECONDS,
        now,
      });
    },
    /** Deletes the row; true when sync was configured. */
    disable(orgId: string): boolean {
      return remove.run(orgId).changes === 1;
    },
    get(orgId: string): SyncConfig | undefined {
      const row = byOrg.get(orgId);
      return row && fromRow(row, secrets);
    },
    list(): SyncConfig[] {
      return all.all().map((row) => fromRow(row, secrets));
    },
    /** Seals upstream keys an older version stored in clear; returns how many. */
    sealClearKeys(): number {
      let sealed = 0;
      for (const row of keys.all()) {
        if (row.upstream_key === '' || isSealed(row.upstream_key)) continue;
        sealed += sealKey.run(secrets.seal(row.upstream_key), row.org_id, row.upstream_key).changes;
      }
      return sealed;
    },
    setState(orgId: string, state: SyncConfig['state'], lastError?: string | null): void {
      if (lastError === undefined) setStateOnly.run(state, orgId);
      else setState.run(state, lastError, orgId);
    },
    recordPush(orgId: string, at: string): void {
      pushedAt.run(at, orgId);
    },
    /** A complete pull that started at `at` (a full one also sets `lastFullPullAt`), with where the next feed walks start. */
    recordPull(orgId: string, at: string, pull: { full: boolean; marks: FeedMarks }): void {
      (pull.full ? fullPulledAt : pulledAt).run({ orgId, at, marks: JSON.stringify(pull.marks) });
    },
    /** At start-up: no round runs yet, whatever a stopped process last wrote. */
    resetBusyStates(): void {
      resetBusy.run();
    },
    /**
     * One round at a time per organization across processes (the server's
     * worker and `sync run`). The owner names its process id, so a lease of a
     * process that died (kill -9) is taken over at once instead of expiring.
     */
    acquireLease(orgId: string, owner: string, now: Date, ttlMs: number): boolean {
      const current = leaseOwner.get(orgId)?.lease_owner;
      if (current && current !== owner && !processAlive(current)) stealLease.run(orgId, current);
      const until = new Date(now.getTime() + ttlMs).toISOString();
      return takeLease.run({ orgId, owner, until, now: now.toISOString() }).changes === 1;
    },
    /** Pushes the lease's end out to `now + ttlMs`; false when `owner` no longer holds it. */
    renewLease(orgId: string, owner: string, now: Date, ttlMs: number): boolean {
      return extendLease.run(new Date(now.getTime() + ttlMs).toISOString(), orgId, owner).changes === 1;
    },
    requestRun(orgId: string, at: string, full: boolean): void {
      requestRun.run(at, full ? 1 : 0, orgId);
    },
    /** Clears the request made at `at`; false when it was already taken (or replaced). */
    takeRunRequest(orgId: string, at: string): boolean {
      return takeRequest.run(orgId, at).changes === 1;
    },
    /** The outcome of a requested round, tagged with the request's time. */
    recordRequestedRound(orgId: string, requestedAt: string, report: object): void {
      writeRound.run(JSON.stringify({ requestedAt, ...report }), orgId);
    },
    requestedRound(orgId: string): ({ requestedAt: string } & Record<string, unknown>) | undefined {
      const text = readRound.get(orgId)?.last_round;
      return text ? (JSON.parse(text) as { requestedAt: string } & Record<string, unknown>) : undefined;
    },
    releaseLease(orgId: string, owner: string): void {
      dropLease.run(orgId, owner);
    },
  };
}

function processAlive(owner: string): boolean {
  const pid = Number(owner.split(':')[0]);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type SyncConfigStore = ReturnType<typeof createSyncConfigStore>;
