import { join } from 'node:path';
import { expect } from 'vitest';
import { systemClock } from '../../main/services/clock.js';
import { createOrganizationStore } from '../../main/storage/organizations.js';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { createPurgeStore } from '../../main/storage/purges.js';
import type { SyncOptions } from '../../main/sync/index.js';
import { createOutboxQueue } from '../../main/sync/outbox-queue.js';
import { createSyncConfigStore } from '../../main/sync/config-store.js';
import { createSyncAdmin } from '../../main/sync/sync-admin.js';
import type { Api } from './api.js';
import { openSecretBox } from '../../main/security/secret-box.js';
import type { TestServer } from './server.js';

/** Worker pace for tests: rounds follow writes at once and backoff stays in milliseconds. */
export const FAST_SYNC: SyncOptions = { tickMs: 20, debounceMs: 5, backoff: { baseMs: 10, maxMs: 80 }, timeoutMs: 2000 };

type SyncSettings = { url: string; key: string; intervalSeconds?: number | undefined; pullIntervalSeconds?: number | undefined; fullIntervalSeconds?: number | undefined };

/**
 * Configures sync the way `sync configure` does (without a child process):
 * of a server running in this process through its own connection, of a data
 * folder no server runs on through a connection of its own.
 */
export function configureSync(target: TestServer | string, orgId: string, settings: SyncSettings): void {
  const withDefaults = {
    ...settings,
    intervalSeconds: settings.intervalSeconds ?? 3600,
    // Tests that wait for a pull set a short pull interval; the others see the first pull only.
    pullIntervalSeconds: settings.pullIntervalSeconds ?? settings.intervalSeconds ?? 3600,
  };
  if (typeof target !== 'string') {
    target.running.inProcess.syncAdmin.configure(orgId, withDefaults);
    return;
  }
  const db = openDatabase(join(target, DATABASE_FILE));
  try {
    createSyncAdmin({
      configs: createSyncConfigStore(db, openSecretBox(target)),
      queue: createOutboxQueue(db),
      organizations: createOrganizationStore(db),
      clock: systemClock,
      storage: createPurgeStore(db),
    }).configure(orgId, withDefaults);
  } finally {
    db.close();
  }
}

/** Polls `GET /sync` until `done` holds for its data, and returns it. */
export async function waitForSync(client: Api, done: (status: any) => boolean, timeoutMs = 60_000): Promise<any> {
  const ends = Date.now() + timeoutMs;
  let last: any;
  while (Date.now() < ends) {
    const res = await client.get('/sync');
    expect(res.status).toBe(200);
    last = res.body.data;
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`sync did not settle: ${JSON.stringify(last)}`);
}

/** Everything pushed: a push that reached the end of the queue ended after `since`. A local write triggers no pull. */
export const drainedSince = (since: string) => (status: any) =>
  status.pending === 0 && status.state === 'idle' && status.lastPushAt !== null && status.lastPushAt > since;

/** Everything pushed and a pull completed after `since` (on the pull interval, or asked by `sync run`). */
export const pulledSince = (since: string) => (status: any) =>
  status.pending === 0 && status.state === 'idle' && status.lastPullAt !== null && status.lastPullAt > since;
