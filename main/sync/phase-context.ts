import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import type { IdMap } from './id-map.js';
import type { OutboxQueue } from './outbox-queue.js';
import type { Upstream } from './upstream.js';

/** What a round hands each of its phases, push and pull, for one organization. */
export interface PhaseContext {
  db: Db;
  orgId: string;
  queue: OutboxQueue;
  ids: IdMap;
  upstream: Upstream;
  clock: Clock;
  /** False once the round should end early (server shutting down). */
  keepGoing: () => boolean;
  /** Resolves once no group of writes is open: entries read then are committed, and safe to send. */
  committed?: (() => Promise<void>) | undefined;
}
