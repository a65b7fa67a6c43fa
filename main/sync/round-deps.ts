import type { Logger } from 'pino';
import type { Clock } from '../services/clock.js';
import type { ProductListener } from '../services/products.js';
import type { Services } from '../services/index.js';
import type { Db } from '../storage/database.js';
import type { InstallationStore } from '../storage/installation.js';
import type { RecentSalesStore } from '../storage/recent-sales.js';
import type { SyncConfig, SyncConfigStore } from './config-store.js';
import type { IdMap } from './id-map.js';
import type { OutboxQueue } from './outbox-queue.js';
import type { Upstream } from './upstream.js';
import type { UpstreamOffer } from './upstream-offer.js';

/**
 * `push`: push what is pending, nothing else (after a local write).
 * `changes`: push, then pull what changed (the pull interval, `sync run`).
 * `full`: push, then read the whole catalog (the full interval, `sync run --full`).
 */
export type RoundKind = 'push' | 'changes' | 'full';

/** What the sync module knows of the PC itself, for its heartbeat. */
export interface DeviceFacts {
  /** `DEVICE_NAME`, or the host name. */
  name: string;
  /** The organization's receipt printers and their last states, as the staff page lists them. */
  printers: (orgId: string) => { name: string; state: string }[];
  /** The organization's open alerts, with this server's store ids. */
  alerts: (orgId: string) => { store: string; kind: string; since: string; detail: string }[];
  /** Whether this PC mails the organization's alerts itself (see `mailsAlertsItself`). */
  mailsAlerts: (orgId: string) => boolean;
}

/** What a round works with; apart from round.ts so that the heartbeat, which the round sends, takes it without importing the round. */
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
  /** What each organization's upstream offers, per upstream URL: read once, and again at each full pull. */
  offers: Map<string, { url: string; offer: UpstreamOffer }>;
  /** This installation's id: the device the upstream's fleet lists, and the seed of its full-pull jitter. */
  installation: InstallationStore;
  /** The PC's name and printers, for its heartbeat. */
  device: DeviceFacts;
  sales: RecentSalesStore;
  /** Per organization, when the last heartbeat went and the parked count it told. */
  heartbeats: Map<string, { at: number; parked: number }>;
  /** Resolves once no group of writes is open, so that only committed entries are pushed. */
  committed?: (() => Promise<void>) | undefined;
}
