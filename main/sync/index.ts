import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../services/clock.js';
import type { Services } from '../services/index.js';
import type { ProductListener } from '../services/products.js';
import type { SecretBox } from '../security/secret-box.js';
import type { Db } from '../storage/database.js';
import { createInstallationStore } from '../storage/installation.js';
import { createRecentSalesStore } from '../storage/recent-sales.js';
import { createPurgeStore } from '../storage/purges.js';
import { createSyncConfigStore, type SyncConfig } from './config-store.js';
import { createIdMap } from './id-map.js';
import { createOutboxQueue } from './outbox-queue.js';
import type { DeviceFacts, RoundDeps } from './round-deps.js';
import { createSyncAdmin } from './sync-admin.js';
import { httpUpstream, type Upstream } from './upstream.js';
import { createSyncWorker, type SyncWorkerOptions } from './worker.js';

export interface SyncOptions extends SyncWorkerOptions {
  /** Builds the upstream client of a configuration; default: HTTP with the configured URL and key. */
  upstreamFor?: (config: SyncConfig) => Upstream;
  /** Time allowed for one upstream call, in milliseconds; default 30,000. */
  timeoutMs?: number;
  /** Length of a round's lease in milliseconds (renewed while the round runs); default 10 minutes. */
  leaseMs?: number;
  /** Slowest line an image upload must get through, in bytes per second; its time allowed follows its size. */
  uploadBytesPerSecond?: number;
  /** Hosts a plain http:// upstream may have besides loopback (`SYNC_ALLOW_HTTP_HOSTS`). */
  allowHttpHosts?: readonly string[] | undefined;
}

/** The sync module over one database: settings, the round's parts, and the worker that runs rounds. */
export function createSync(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  services: Services;
  /** Seals the upstream key in the database (see security/secret-box.ts). */
  secrets: SecretBox;
  imagePath: (file: string) => string | undefined;
  productListeners: ProductListener[];
  options?: SyncOptions | undefined;
  /** The PC's name and printers for its heartbeat; default the host name and no printers (the CLI). */
  device?: DeviceFacts;
  /** Resolves once no group of writes is open (see storage/group-commit.ts); unset, every commit is its own. */
  committed?: (() => Promise<void>) | undefined;
}) {
  const options = deps.options ?? {};
  // Aborted by the worker's stop(): a call to a hung upstream must not hold up a shutdown.
  const shutdown = new AbortController();
  const configs = createSyncConfigStore(deps.db, deps.secrets);
  const queue = createOutboxQueue(deps.db);
  const roundDeps: RoundDeps = {
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    services: deps.services,
    configs,
    queue,
    ids: createIdMap(deps.db),
    imagePath: deps.imagePath,
    productListeners: deps.productListeners,
    upstreamFor:
      options.upstreamFor ??
      ((config) => httpUpstream(config.upstreamUrl, config.upstreamKey, {
        timeoutMs: options.timeoutMs,
        uploadBytesPerSecond: options.uploadBytesPerSecond,
        signal: shutdown.signal,
      })),
    owner: `${process.pid}:${randomBytes(6).toString('hex')}`,
    leaseMs: options.leaseMs,
    offers: new Map(),
    installation: createInstallationStore(deps.db),
    device: deps.device ?? { name: hostname(), printers: () => [], alerts: () => [], mailsAlerts: () => true },
    sales: createRecentSalesStore(deps.db),
    heartbeats: new Map(),
    committed: deps.committed,
  };
  return {
    admin: createSyncAdmin({
      configs,
      queue,
      organizations: deps.services.stores.organizations,
      clock: deps.clock,
      allowHttpHosts: options.allowHttpHosts,
      storage: createPurgeStore(deps.db),
    }),
    configs,
    queue,
    roundDeps,
    worker: createSyncWorker(roundDeps, { ...options, onStop: () => shutdown.abort() }),
  };
}

export type Sync = ReturnType<typeof createSync>;
