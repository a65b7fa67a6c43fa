import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import type { SyncStatus } from '../../shared/api/sync.js';
import { IMAGES_DIR, openImageStore } from '../images/store.js';
import { systemClock } from '../services/clock.js';
import { createSync } from '../sync/index.js';
import { runRound, type RoundReport } from '../sync/round.js';
import { parseSyncHttpHosts } from '../sync/upstream-url.js';
import { openSecretBox } from '../security/secret-box.js';
import { BadRequest } from '../services/errors.js';
import { need, type CliCommand, type CliContext } from './command.js';
import { withServices } from './open-services.js';
import { progressBar } from './sync-progress.js';

/** How long `sync run` waits for a running server to take its request before running the round itself. */
const HANDOVER_MS = 3000;

const statusText = (status: SyncStatus) =>
  [
    `Sync: ${status.configured ? `${status.state}, upstream ${status.upstream}` : 'not configured'}`,
    `Pending: ${status.pending}${status.oldestPendingAt ? ` (oldest ${status.oldestPendingAt})` : ''}`,
    `Parked: ${status.parked}`,
    `Last push: ${status.lastPushAt ?? 'never'}   Last pull: ${status.lastPullAt ?? 'never'}   Last full pull: ${status.lastFullPullAt ?? 'never'}`,
    ...(status.lastError ? [`Last error: ${status.lastError}`] : []),
  ].join('\n');

const withSync = <T>({ dataDir, keyWrapper }: Pick<CliContext, 'dataDir' | 'keyWrapper'>, use: (sync: ReturnType<typeof createSync>) => T | Promise<T>) =>
  withServices(dataDir, (services, db) =>
    use(
      createSync({
        db,
        clock: systemClock,
        logger: pino({ level: 'silent' }),
        services,
        secrets: openSecretBox(dataDir, keyWrapper),
        imagePath: (file) => openImageStore(join(dataDir, IMAGES_DIR)).pathOf(file),
        productListeners: [],
        options: { allowHttpHosts: parseSyncHttpHosts(process.env.SYNC_ALLOW_HTTP_HOSTS) },
      }),
    ),
  );

/** Hands the round to a running server, or runs it here when none takes it within `HANDOVER_MS`. */
async function requestOrRun(
  sync: ReturnType<typeof createSync>,
  orgId: string,
  full: boolean,
  onProgress: (pushed: number) => void,
  onWait: () => void,
): Promise<RoundReport> {
  const requestedAt = new Date().toISOString();
  sync.configs.requestRun(orgId, requestedAt, full);
  const handoverEnds = Date.now() + HANDOVER_MS;
  for (;;) {
    const round = sync.configs.requestedRound(orgId);
    if (round?.requestedAt === requestedAt) return round as unknown as RoundReport;
    if (Date.now() > handoverEnds && sync.configs.takeRunRequest(orgId, requestedAt)) break;
    onWait();
    await sleep(100);
  }
  return runRound(sync.roundDeps, orgId, { kind: full ? 'full' : 'changes', wholeWithoutFeed: true, onProgress });
}

/**
 * One round now. A server running on the data folder does it (its search index
 * must see what the pull changes); without one, this process does.
 */
async function runNow({ args, values, json, ...context }: CliContext): Promise<RoundReport> {
  const orgId = need(args[0], '<orgId>');
  const full = values.full === true;
  return withSync(context, async (sync) => {
    if (!sync.configs.get(orgId)) throw new BadRequest(`Sync is not configured for ${orgId}: run \`sync configure\` first`);
    const total = sync.queue.counts(orgId).pending;
    const bar = progressBar(total, !json && process.stderr.isTTY === true);
    try {
      // A round already running (the server's, slow to take the request) holds the lease, or took it over from
      // this one on a machine slow enough for the lease to lapse (`stopped`): ask again after it.
      for (;;) {
        const report = await requestOrRun(sync, orgId, full, (pushed) => bar.update(pushed), () => bar.update(total - sync.queue.counts(orgId).pending));
        if (report.failure !== 'busy' && report.failure !== 'stopped') return report;
        await sleep(100);
      }
    } finally {
      bar.end();
    }
  });
}

export const syncCommands: CliCommand[] = [
  {
    name: 'sync configure',
    usage:
      '<orgId> --url <upstream base URL incl. /api/v1> --key <upstream write key> [--interval <seconds>] [--pull-interval <seconds>] [--full-interval <seconds>]',
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      interval: { type: 'string' },
      'pull-interval': { type: 'string' },
      'full-interval': { type: 'string' },
    },
    run: ({ args, values, ...context }) =>
      withSync(context, ({ admin }) => {
        const number = (value: unknown) => (value === undefined ? undefined : Number(value));
        const result = admin.configure(need(args[0], '<orgId>'), {
          url: need(values.url, '--url <upstream base URL>'),
          key: need(values.key, '--key <upstream write key>'),
          intervalSeconds: number(values.interval),
          pullIntervalSeconds: number(values['pull-interval']),
          fullIntervalSeconds: number(values['full-interval']),
        });
        const text = `Sync configured: upstream ${result.upstream}; push every ${result.interval} s, pull every ${result.pullInterval} s, everything every ${result.fullInterval} s.`;
        return { json: result, text };
      }),
  },
  {
    name: 'sync status',
    usage: '<orgId>',
    run: ({ args, ...context }) =>
      withSync(context, ({ admin }) => {
        const orgId = need(args[0], '<orgId>');
        const status = admin.status(orgId);
        const parked = admin.parked(orgId).map((p) => `  #${p.id} ${p.operation} ${p.resource} ${p.resourceId}: ${p.status} ${p.message}`);
        return { json: status, text: [statusText(status), ...parked].join('\n') };
      }),
  },
  {
    name: 'sync run',
    usage: '<orgId> [--full]',
    options: { full: { type: 'boolean', default: false } },
    run: async (context) => {
      const report = await runNow(context);
      const { pushed, parked, pending, pulled } = report;
      const text = report.reached
        ? `Pushed ${pushed}, parked ${parked}, pending ${pending}, pulled ${pulled}.`
        : `Could not complete the round (${report.failure ?? 'unknown'}): pushed ${pushed}, parked ${parked}, pending ${pending}.`;
      return { json: { pushed, parked, pending, pulled }, text, exitCode: report.reached ? 0 : 1 };
    },
  },
  {
    name: 'sync retry',
    usage: '<orgId> <entryId>|--all',
    options: { all: { type: 'boolean', default: false } },
    run: ({ args, values, ...context }) =>
      withSync(context, ({ admin }) => {
        const orgId = need(args[0], '<orgId>');
        const entry = values.all === true ? 'all' : need(args[1], '<entryId> or --all');
        const result = admin.retry(orgId, entry);
        return { json: result, text: `${result.retried} parked entr${result.retried === 1 ? 'y' : 'ies'} back in the queue.` };
      }),
  },
  {
    name: 'sync discard',
    usage: '<orgId> <entryId>',
    run: ({ args, ...context }) =>
      withSync(context, ({ admin }) => {
        const result = admin.discard(need(args[0], '<orgId>'), need(args[1], '<entryId>'));
        return { json: result, text: 'Entry discarded; the outbox keeps a record of it.' };
      }),
  },
  {
    name: 'sync disable',
    usage: '<orgId>',
    run: ({ args, ...context }) =>
      withSync(context, ({ admin }) => {
        const result = admin.disable(need(args[0], '<orgId>'));
        return { json: result, text: 'Sync disabled; local writes stay queued.' };
      }),
  },
];
