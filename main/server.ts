import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { API_PREFIX, createApp } from './app.js';
import { bootstrapOrganization } from './bootstrap.js';
import type { Config } from './config.js';
import { IMAGES_DIR, openImageStore } from './images/store.js';
import type { SearchBuildOptions } from './search/product-search.js';
import type { SyncOptions } from './sync/index.js';
import { systemClock, type Clock } from './services/clock.js';
import { DATABASE_FILE, openDatabase, type Synchronous } from './storage/database.js';

export interface RunningServer {
  /** Base URL of the API, e.g. http://127.0.0.1:8787/api/v1 */
  url: string;
  port: number;
  /** Credentials file written on first start, if this start wrote one. */
  credentialsFile: string | undefined;
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
}

/** Opens the data folder and serves the API. Used by `npm start`, Electron and tests alike. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  const db = openDatabase(join(config.dataDir, DATABASE_FILE), { synchronous: options.synchronous ?? 'FULL' });
  const images = openImageStore(join(config.dataDir, IMAGES_DIR));
  const { app, services, sync } = createApp({
    db,
    clock: options.clock ?? systemClock,
    logger,
    images,
    publicUrl: config.publicUrl,
    search: options.search,
    sync: options.sync,
  });

  let server: Server;
  try {
    server = await new Promise<Server>((resolve, reject) => {
      const s = app.listen(config.port, config.host, (err?: Error) => (err ? reject(err) : resolve(s)));
    });
  } catch (err) {
    db.close();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${hostForUrl}:${port}${API_PREFIX}`;
  const credentialsFile = bootstrapOrganization(config.dataDir, services.organizations, url);
  // Not awaited: the API answers at once; `q` answers 503 until an organization's index is complete.
  services.search.build().catch((err: unknown) => logger.error({ err }, 'building the product search index failed'));
  sync.worker.start();

  return {
    url,
    port,
    credentialsFile,
    close: async () => {
      services.search.stop();
      await sync.worker.stop();
      await new Promise<void>((resolve, reject) => {
        server.close((err) => {
          db.close();
          if (err) reject(err);
          else resolve();
        });
        server.closeAllConnections();
      });
    },
  };
}
