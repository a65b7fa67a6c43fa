import { join } from 'node:path';
import { DATABASE_FILE, openDatabase } from '../../main/storage/database.js';
import { FULL_SIZE, generateCatalog, type Catalog, type CatalogSize } from '../bench/catalog.js';
import { runCli } from './cli.js';
import type { SyncPair } from './sync-pair.js';

/**
 * Writes a catalog straight into the upstream's database, as HQ's own imports
 * would, stamped a minute ago: older than any pull of the store PC. The
 * upstream runs in this process: while a group of its writes is open, a
 * lock wait here would block the very event loop that commits it. So the
 * import takes the write lock without waiting, and tries again after a turn
 * of the event loop until it has it, then writes everything in that one transaction.
 */
export async function seedUpstream(pair: SyncPair, size: Partial<CatalogSize>): Promise<Catalog> {
  const db = openDatabase(join(pair.upstream.dataDir, DATABASE_FILE));
  db.pragma('busy_timeout = 0');
  try {
    const small: CatalogSize = { ...FULL_SIZE, products: 0, orders: 0, categories: 5, suppliers: 5, stores: 2, aliasShare: 0 };
    const importCatalog = db.transaction(() => generateCatalog(db, pair.upOrg.id, { ...small, ...size }, new Date(Date.now() - 60_000)));
    for (;;) {
      try {
        return importCatalog.immediate();
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  } finally {
    db.close();
  }
}

/**
 * `sync run` (and `--full`) through the CLI, as a person would type it; the
 * store PC's server does the round. A round cut short by the line (exit 1,
 * state `offline`) is run again, as a person would, up to three times.
 */
export async function syncRun(pair: SyncPair, options: { full?: boolean } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await runCli(pair.local.dataDir, ['sync', 'run', pair.org.id, '--json', ...(options.full ? ['--full'] : [])]);
    if (result.status === 0) return result.json as { pushed: number; parked: number; pending: number; pulled: number };
    const status = (await pair.write.get('/sync')).body.data as { state: string };
    if (status.state !== 'offline' || attempt === 3) {
      throw new Error(`sync run failed: ${result.stdout} ${result.stderr}; GET /sync: ${JSON.stringify(status)}`);
    }
  }
}

/** Sets the upstream organization's features the way `org features` does. */
export async function setUpstreamFeatures(pair: SyncPair, change: { enable?: string[]; disable?: string[] }): Promise<void> {
  const args = [...(change.enable ? ['--enable', change.enable.join(',')] : []), ...(change.disable ? ['--disable', change.disable.join(',')] : [])];
  const result = await runCli(pair.upstream.dataDir, ['org', 'features', pair.upOrg.id, ...args, '--json']);
  if (result.status !== 0) throw new Error(`org features failed: ${result.stdout} ${result.stderr}`);
}
