import express, { type Express } from 'express';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { offUpdateStatus, type UpdateStatus } from '../shared/api/update-status.js';
import { authenticate } from './http/auth.js';
import { compressJsonAnswers } from './http/compress-answers.js';
import { errorHandler, notFoundHandler } from './http/errors.js';
import { idempotency } from './http/idempotency.js';
import { syncBase } from './http/sync-base.js';
import { forWritesOnly } from './http/read-methods.js';
import { requestLog } from './http/request-log.js';
import { categoryRoutes } from './http/routes/categories.js';
import { identityLogFeatureGate, identityLogRoutes } from './http/routes/identity-logs.js';
import { orderRoutes } from './http/routes/orders.js';
import { productImageRoutes } from './http/routes/product-images.js';
import { productRoutes } from './http/routes/products.js';
import { printerStatusRoutes, receiptRoutes } from './http/routes/receipts.js';
import { reportRoutes } from './http/routes/reports.js';
import { storedImageRoutes } from './http/routes/stored-images.js';
import { storeRoutes } from './http/routes/stores.js';
import { supplierRoutes } from './http/routes/suppliers.js';
import { scheduleSyncAfterWrites, syncRoutes } from './http/routes/sync.js';
import { systemInfoRoutes, systemRoutes } from './http/routes/system.js';
import type { ImageStore } from './images/store.js';
import { checkPrinter } from './receipts/printer-check.js';
import { createPrinterStates } from './receipts/printer-states.js';
import { createReceiptPrinting } from './receipts/receipt-printing.js';
import { createReportPrinting } from './receipts/report-printing.js';
import { IMAGES_PATH } from './rules/image-urls.js';
import { createScaleLabels } from './scales/scale-labels.js';
import { localGuard } from './security/local-guard.js';
import type { LocalNames } from './security/local-names.js';
import { securityHeaders } from './security/security-headers.js';
import type { SearchBuildOptions } from './search/product-search.js';
import type { Clock } from './services/clock.js';
import { createServices, type Services } from './services/index.js';
import { createProductImageService, releaseReplacedImages } from './services/product-images.js';
import type { Db } from './storage/database.js';
import { createIdempotencyKeyStore } from './storage/idempotency-keys.js';
import { createSyncWriterStore } from './storage/sync-writers.js';
import { createProductImageStore } from './storage/product-images.js';
import { createSync, type Sync, type SyncOptions } from './sync/index.js';
import { PROJECT_ROOT, VERSION } from './version.js';

export const API_PREFIX = '/api/v1';
/** Largest JSON body accepted; an order with thousands of lines stays well below it. */
export const JSON_BODY_LIMIT = '1mb';

export interface AppDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The image store in `DATA_DIR/images`. */
  images: ImageStore;
  /** `PUBLIC_URL`: base of the image URLs handed out; unset, each request's host. */
  publicUrl?: string | undefined;
  /** Pace of the start-up build of the product search index; the defaults suit production. */
  search?: SearchBuildOptions | undefined;
  /** The names this server answers to and the origins allowed to call it from a browser. */
  localNames: LocalNames;
  /** Pace and upstream of the sync worker; the defaults suit production. */
  sync?: SyncOptions | undefined;
  /** Where the desktop app's self-update stands; unset, updates are off. */
  updateStatus?: (() => UpdateStatus) | undefined;
}

/** Builds the express app over one database. Listening and starting the sync worker are the caller's job. */
export function createApp(deps: AppDeps): { app: Express; services: Services; sync: Sync } {
  const imageRecords = createProductImageStore(deps.db);
  const releaseImages = releaseReplacedImages(deps.images, imageRecords);
  const services = createServices({
    db: deps.db,
    clock: deps.clock,
    search: deps.search,
    productListeners: [releaseImages],
    scaleLabels: createScaleLabels({ db: deps.db, clock: deps.clock }).reader,
  });
  const sync = createSync({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    services,
    imagePath: (file) => deps.images.pathOf(file),
    productListeners: [services.search, releaseImages],
    options: deps.sync,
  });
  const productImages = createProductImageService({ products: services.products, images: deps.images, records: imageRecords, clock: deps.clock });
  productImages.removeOrphans();
  const printerStates = createPrinterStates();
  const receiptPrinting = createReceiptPrinting({ services, clock: deps.clock, states: printerStates });
  const reportPrinting = createReportPrinting({ services, clock: deps.clock, states: printerStates });
  const app = express();
  app.disable('x-powered-by');
  // List pages can be megabytes; hashing each one for an ETag costs more than it saves on localhost.
  app.set('etag', false);
  app.use(requestLog(deps.logger));
  app.use(securityHeaders(`${API_PREFIX}/${IMAGES_PATH}`));
  app.use(localGuard(deps.localNames));

  const api = express.Router();
  api.use(systemRoutes({ version: VERSION, searchState: () => services.search.state(), updateStatus: deps.updateStatus ?? (() => offUpdateStatus(VERSION)) }));
  api.use(storedImageRoutes(productImages));
  api.use(printerStatusRoutes(printerStates));
  api.use(authenticate(services.organizations));
  api.use('/identity-logs', identityLogFeatureGate);
  api.use(
    forWritesOnly(
      express.json({ limit: JSON_BODY_LIMIT }),
      idempotency(createIdempotencyKeyStore(deps.db), deps.clock),
      syncBase(createSyncWriterStore(deps.db)),
      scheduleSyncAfterWrites(sync.worker),
    ),
  );
  api.use(productRoutes(services.products));
  api.use(productImageRoutes(productImages, { publicUrl: deps.publicUrl }));
  api.use(supplierRoutes(services.suppliers));
  api.use(categoryRoutes(services.categories));
  api.use(storeRoutes(services.retailStores));
  api.use(orderRoutes(services.orders));
  api.use(receiptRoutes(receiptPrinting, (printer) => checkPrinter({ clock: deps.clock, states: printerStates }, printer)));
  api.use(reportRoutes(services.reports, reportPrinting));
  api.use(identityLogRoutes(services.identityLogs));
  api.use(syncRoutes(sync.admin));
  api.use(systemInfoRoutes({ version: VERSION, databaseFile: deps.db.name }));

  app.use(API_PREFIX, compressJsonAnswers(), api);
  // The kiosk screen at `/` (also the Electron window's content) and the status page at `/status`, as `npm run build` bundles them.
  app.use(express.static(join(PROJECT_ROOT, 'dist', 'renderer'), { index: 'index.html', extensions: ['html'], dotfiles: 'ignore', redirect: false }));
  app.use(notFoundHandler);
  app.use(errorHandler(deps.logger));
  return { app, services, sync };
}
