import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { UpdateStatus } from '../shared/api/update-status.js';
import { API_PREFIX, createApp } from './app.js';
import { bootstrapOrganization } from './bootstrap.js';
import type { Config } from './config.js';
import { batchedStdout } from './http/request-log.js';
import { IMAGES_DIR, openImageStore } from './images/store.js';
import { startDailyPurge } from './retention/daily-purge.js';
import { createPersonalDataRetention } from './retention/personal-data.js';
import type { SearchBuildOptions } from './search/product-search.js';
import { localNames } from './security/local-names.js';
import type { SyncOptions } from './sync/index.js';
import { systemClock, type Clock } from './services/clock.js';
import { lockDataFolder } from './storage/data-folder-lock.js';
import { DATABASE_FILE, openDatabase, type Db, type Synchronous } from './storage/database.js';

export interface RunningServer {
  /** Base URL of the API, e.g. http://127.0.0.1:8787/api/v1 */
  url: string;
  port: number;
  /** Credentials file written on first start, if this start wrote one. */
  credentialsFile: string | undefined;
  /** Stops background work, closes the HTTP server, checkpoints the WAL, then closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  clock?: Clock;
  logger?: Logger;
  synchronous?: Synchronous;
  /** Pace of the product search index build that starts once the server listens. */
  search?: SearchBuildOptions;
  /** Pace and upstream of the sync worker. */
  sync?: SyncOptions;
  /** Where the desktop app's self-update stands; unset (the headless server), updates are off. */
  updateStatus?: () => UpdateStatus;
  /** See `AppDeps.withoutPermissionCheck`: for the benchmark only. */
  withoutPermissionCheck?: boolean;
}

/** Opens the data folder and serves the API. Used by `npm start`, Electron and tests alike. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: config.logLevel }, batchedStdout());
  mkdirSync(config.dataDir, { recursive: true });
  const unlock = lockDataFolder(config.dataDir, 'server');
  let db: Db;
  try {
    db = openDatabase(join(config.dataDir, DATABASE_FILE), { synchronous: options.synchronous ?? 'FULL' });
  } catch (err) {
    unlock();
    throw err;
  }
  const clock = options.clock ?? systemClock;
  const images = openImageStore(join(config.dataDir, IMAGES_DIR));
  const { app, services, sync } = createApp({
    db,
    clock,
    logger,
    images,
    publicUrl: config.publicUrl,
    search: options.search,
    localNames: localNames({
      host: config.host,
      publicUrl: config.publicUrl,
      allowedHosts: config.allowedHosts ?? [],
      allowedOrigins: config.allowedOrigins ?? [],
    }),
    sync: options.sync,
    updateStatus: options.updateStatus,
    withoutPermissionCheck: options.withoutPermissionCheck,
  });

  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.port, config.host, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
  } catch (err) {
    db.close();
    unlock();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${hostForUrl}:${port}${API_PREFIX}`;
  const credentialsFile = bootstrapOrganization(config.dataDir, services.organizations, url);
  // Not awaited: the API answers at once; `q` answers 503 until an organization's index is complete.
  services.search.build().catch((err: unknown) => logger.error({ err }, 'building the product search index failed'));
  const stopPurge = startDailyPurge(createPersonalDataRetention({ db, clock }), logger);
  sync.worker.start();

  return {
    url,
    port,
    credentialsFile,
    close: async () => {
      services.search.stop();
      stopPurge();
      await sync.worker.stop();
      await new Promise<void>((resolve, reject) => {
        server.close((err) => {
          let failure: unknown = err;
          try {
            // Folds the WAL back into the database file, so a copy of retail.sqlite
            // alone (a backup, a moved data folder) holds every write.
            db.pragma('wal_checkpoint(TRUNCATE)');
          } catch (checkpointError) {
            failure ??= checkpointError;
          }
          db.close();
          unlock();
          if (failure) reject(failure);
          else resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
