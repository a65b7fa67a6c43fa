import { immediateTransaction } from '../../main/storage/transactions.js';
import { FULL_SIZE, generateCatalog, type Catalog, type CatalogSize } from '../bench/catalog.js';
import { runCli } from './cli.js';
import type { SyncPair } from './sync-pair.js';

/**
 * Writes a catalog straight into the upstream's database, as HQ's own imports
 * would, stamped a minute ago: older than any pull of the store PC. The
 * upstream runs in this process, so the catalog goes through its own
 * connection, in one transaction (a savepoint of its open group, if one is).
 */
export function seedUpstream(pair: SyncPair, size: Partial<CatalogSize>): Catalog {
  const { db } = pair.upstream.running.inProcess;
  const small: CatalogSize = { ...FULL_SIZE, products: 0, orders: 0, categories: 5, suppliers: 5, stores: 2, aliasShare: 0 };
  return immediateTransaction(db, () => generateCatalog(db, pair.upOrg.id, { ...small, ...size }, new Date(Date.now() - 60_000)));
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
