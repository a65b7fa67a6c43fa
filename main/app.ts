import express, { type Express } from 'express';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { authenticate } from './http/auth.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { requestLog } from './http/request-log.js';
import { productRoutes } from './http/routes/products.js';
import { systemRoutes } from './http/routes/system.js';
import type { Clock } from './services/clock.js';
import { createServices, type Services } from './services/index.js';
import type { Db } from './storage/database.js';
import { PROJECT_ROOT, VERSION } from './version.js';

export const API_PREFIX = '/api/v1';
/** Largest JSON body accepted; an order with thousands of lines stays well below it. */
export const JSON_BODY_LIMIT = '1mb';

export interface AppDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
}

/** Builds the express app over one database. Listening is the caller's job. */
export function createApp(deps: AppDeps): { app: Express; services: Services } {
  const services = createServices({ db: deps.db, clock: deps.clock });
  const app = express();
  app.disable('x-powered-by');
  // List pages can be megabytes; hashing each one for an ETag costs more than it saves on localhost.
  app.set('etag', false);
  app.use(requestLog(deps.logger));

  const api = express.Router();
  api.use(systemRoutes({ version: VERSION, searchState: () => 'ready' }));
  api.use(authenticate(services.organizations));
  api.use(express.json({ limit: JSON_BODY_LIMIT }));
  api.use(productRoutes(services.products));

  app.use(API_PREFIX, api);
  // The status page and, in the Electron app, the window's content.
  app.use(express.static(join(PROJECT_ROOT, 'renderer'), { index: 'index.html', dotfiles: 'ignore', redirect: false }));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return { app, services };
}
