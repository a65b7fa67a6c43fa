import express, { type Express } from 'express';
import type { RequestListener } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { offUpdateStatus, type UpdateStatus } from '../shared/api/update-status.js';
import { catalogFilesOf } from './catalog/catalog-files.js';
import { createFleet } from './fleet/fleet.js';
import { authenticate } from './http/auth.js';
import { compressJsonAnswers } from './http/compress-answers.js';
import { errorAnswer, errorHandler, notFoundHandler, routeErrorHandler } from './http/errors.js';
import { feedHorizon } from './http/feed-horizon.js';
import { hotReads } from './http/hot-reads.js';
import { hotWrites } from './http/hot-writes.js';
import { readsAfterCommit, writesInGroups } from './http/group-commit.js';
import { idempotency } from './http/idempotency.js';
import { enforcePermissions } from './http/permissions.js';
import { syncBase } from './http/sync-base.js';
import { forWritesOnly } from './http/read-methods.js';
import { bySegment } from './http/route-prefix.js';
import { inOrder } from './http/in-order.js';
import { requestLog } from './http/request-log.js';
import { writeKeysOverTls } from './http/write-key-transport.js';
import { catalogRoutes } from './http/routes/catalog.js';
import { categoryRoutes } from './http/routes/categories.js';
import { fleetRoutes, takeHeartbeat } from './http/routes/fleet.js';
import { identityLogFeatureGate, identityLogRoutes } from './http/routes/identity-logs.js';
import { keyRoutes } from './http/routes/keys.js';
import { staffSignInRoutes } from './http/routes/staff-sign-in.js';
import { orderRoutes, takeOrder } from './http/routes/orders.js';
import { paymentRoutes } from './http/routes/payments.js';
import { productImageRoutes } from './http/routes/product-images.js';
import { productRoutes } from './http/routes/products.js';
import { printerRoutes } from './http/routes/printers.js';
import { receiptRoutes } from './http/routes/receipts.js';
import { reportRoutes } from './http/routes/reports.js';
import { storedImageRoutes } from './http/routes/stored-images.js';
import { storeRoutes } from './http/routes/stores.js';
import { supplierRoutes } from './http/routes/suppliers.js';
import { scheduleSyncAfterWrites, syncRoutes } from './http/routes/sync.js';
import { healthOf, systemInfoRoutes, systemRoutes } from './http/routes/system.js';
import { terminalRoutes } from './http/routes/terminals.js';
import { mailRoutes } from './http/routes/mail.js';
import { alertRoutes } from './http/routes/alerts.js';
import { diskFreeOf, observeKnown, observeTerminals, type ConditionSources } from './alerts/alert-conditions.js';
import { createAlertWatch, DEFAULT_ALERT_WATCH, type AlertWatch, type AlertWatchOptions } from './alerts/alert-watch.js';
import { mailsAlertsItself } from './alerts/alert-mailer.js';
import { observeFleet } from './alerts/fleet-conditions.js';
import { reportedAlerts } from './alerts/reported-alerts.js';
import { createAlertStore } from './storage/alerts.js';
import type { MailEnvironment } from './mail/mail-config.js';
import { createMailSender, type MailSender, type MailSenderOptions } from './mail/mail-sender.js';
import { createMailServers } from './mail/mail-servers.js';
import { createMailService } from './mail/mail-service.js';
import { settlementRoutes } from './http/routes/settlements.js';
import { createDailyMailSchedule, type DailyMailSchedule } from './mail/daily-mail-schedule.js';
import { createDailySalesStore } from './storage/daily-sales.js';
import type { ImageStore } from './images/store.js';
import { createCardPayments, type CardPayments } from './payments/card-payments.js';
import type { FollowPace } from './payments/payment-settling.js';
import type { TerminalNetworkPolicy } from './payments/terminal-network.js';
import { createPrinterConnection } from './receipts/printer-connection.js';
import { printerNetworkPolicy, type PrinterNetworkPolicy } from './receipts/printer-network.js';
import { createPrinterRegistry } from './receipts/printer-registry.js';
import { createPrinterStates } from './receipts/printer-states.js';
import { createReceiptPrinting } from './receipts/receipt-printing.js';
import { createReportPrinting } from './receipts/report-printing.js';
import { DEFAULT_THRESHOLDS, type FleetThresholds } from './rules/fleet-state.js';
import { IMAGES_PATH } from './rules/image-urls.js';
import { createDataRetention, type DataRetention, type RetentionSettings } from './retention/data-retention.js';
import { createScaleLabels } from './scales/scale-labels.js';
import { createSettlements } from './settlements/index.js';
import { localGuard } from './security/local-guard.js';
import type { LocalNames } from './security/local-names.js';
import { securityHeaders } from './security/security-headers.js';
import type { SearchBuildOptions } from './search/product-search.js';
import type { Clock } from './services/clock.js';
import { createServices, type Services } from './services/index.js';
import { createStaffSignIns } from './services/staff-sign-ins.js';
import { createProductImageService, releaseReplacedImages } from './services/product-images.js';
import type { Db } from './storage/database.js';
import { createFeedHorizonStore } from './storage/feed-horizons.js';
import { createFleetDeviceStore } from './storage/fleet-devices.js';
import { createGroupCommit, DEFAULT_GROUP_COMMIT, type GroupCommit, type GroupCommitOptions } from './storage/group-commit.js';
import { createIdempotencyKeyStore } from './storage/idempotency-keys.js';
import { createPrinterStore } from './storage/printers.js';
import { createRateWindowStore } from './storage/rate-windows.js';
import type { SecretBox } from './security/secret-box.js';
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
  /** Seals stored secrets (the upstream key) with the data folder's key file. */
  secrets: SecretBox;
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
  /** Addresses and ports printers may have (`PRINTER_ALLOW_ADDRESSES`, `PRINTER_PORTS`); default the private LAN on 9100-9102. */
  printerNetwork?: PrinterNetworkPolicy | undefined;
  /** Addresses card terminals may have (`TERMINAL_ALLOW_ADDRESSES`); default the private LAN on 8443. */
  terminalNetwork?: TerminalNetworkPolicy | undefined;
  /** How often the terminal is asked about a payment whose answer was lost; the default suits production. */
  paymentPace?: FollowPace | undefined;
  /** `PAYMENT_MAX_CENTS`: the largest amount one card payment may charge; default 500000 (CHF 5,000). */
  paymentMaxCents?: number | undefined;
  /** SHA-256 fingerprint of the certificate the server serves HTTPS with, shown on `GET /system`; unset over plain HTTP. */
  tlsFingerprint?: string | undefined;
  /** This PC's name in the upstream's fleet list; default the host name. */
  deviceName?: string | undefined;
  /** When a store PC reporting to this server counts as behind or offline; default 15 and 10 minutes. */
  fleetThresholds?: FleetThresholds | undefined;
  /**
   * Leaves out the check of what each key kind may do. Only the benchmark sets
   * it, to measure what the check costs; no setting or environment variable
   * of the server reaches it.
   */
  withoutPermissionCheck?: boolean | undefined;
  /** How long settled data is kept; unset, the defaults. */
  retention?: Partial<RetentionSettings> | undefined;
  /** Pace of the group commit of writes; `false` commits each write on its own. Default `DEFAULT_GROUP_COMMIT`. */
  groupCommit?: GroupCommitOptions | false | undefined;
  /** Called once a flush to disk failed and writes stopped (storage/group-commit.ts, rule 4): ends the process. Default: nothing more. */
  onDiskFailure?: ((failure: unknown) => void) | undefined;
  /** The mail server of the environment (`SMTP_URL`, `MAIL_FROM`); unset, each organization sets its own. */
  mailEnvironment?: MailEnvironment | undefined;
  /** Pace and timeouts of the mail sender; the defaults suit production. */
  mailSender?: Partial<MailSenderOptions> | undefined;
  /** `ALERT_AFTER_MS` and the pace of the alert watch; the defaults suit production. */
  alertWatch?: Partial<AlertWatchOptions> | undefined;
  /** Bytes free on the data disk; default what the system says of the database's folder. */
  diskFree?: (() => Promise<number>) | undefined;
  /** `DAILY_MAIL_AT`: the stores' local time of the suppliers' daily sales mails; default 06:00. */
  dailyMailAt?: string | undefined;
}

/**
 * Builds the express app over one database, and `serve`, the request handler
 * to listen with: the hot reads (http/hot-reads.ts) in front of the app.
 * Listening and starting the sync worker are the caller's job.
 */
export function createApp(deps: AppDeps): {
  app: Express;
  serve: RequestListener;
  services: Services;
  sync: Sync;
  retention: DataRetention;
  groups: GroupCommit | undefined;
  payments: CardPayments;
  mail: MailSender;
  alerts: AlertWatch;
  dailyMail: DailyMailSchedule;
} {
  const groups = deps.groupCommit === false ? undefined : createGroupCommit(deps.db, deps.groupCommit ?? DEFAULT_GROUP_COMMIT, deps.onDiskFailure);
  const imageRecords = createProductImageStore(deps.db);
  const releaseImages = releaseReplacedImages(deps.images, imageRecords, (then) => groups?.afterCommit(then) ?? false);
  const services = createServices({
    db: deps.db,
    clock: deps.clock,
    search: deps.search,
    productListeners: [releaseImages],
    scaleLabels: createScaleLabels({ db: deps.db, clock: deps.clock }).reader,
  });
  const alertRecords = createAlertStore(deps.db);
  const printerStates = createPrinterStates();
  const printerRecords = createPrinterStore(deps.db);
  const sync = createSync({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    secrets: deps.secrets,
    services,
    imagePath: (file) => deps.images.pathOf(file),
    productListeners: [services.search, releaseImages],
    options: deps.sync,
    device: {
      name: deps.deviceName ?? hostname(),
      printers: (orgId) => printerRecords.list(orgId).map((printer) => ({ name: printer.name, state: printerStates.of(printer.id).state })),
      alerts: (orgId) => reportedAlerts(alertRecords, orgId),
      mailsAlerts: (orgId) => mailsAlertsItself({ servers: mailServers, syncConfigs: sync.configs }, orgId),
    },
    committed: groups?.committed,
  });
  const fleetDevices = createFleetDeviceStore(deps.db);
  const fleet = createFleet({
    devices: fleetDevices,
    clock: deps.clock,
    thresholds: deps.fleetThresholds ?? DEFAULT_THRESHOLDS,
  });
  const retention = createDataRetention({ db: deps.db, clock: deps.clock, settings: deps.retention, groups });
  const productImages = createProductImageService({ products: services.products, images: deps.images, records: imageRecords, clock: deps.clock });
  productImages.removeOrphans();
  const printerConnection = createPrinterConnection({ policy: deps.printerNetwork ?? printerNetworkPolicy() });
  const printers = createPrinterRegistry({
    printers: printerRecords,
    stores: services.stores.retailStores,
    connection: printerConnection,
    states: printerStates,
    clock: deps.clock,
  });
  const printing = { clock: deps.clock, registry: printers, connection: printerConnection, states: printerStates };
  const payments = createCardPayments({
    db: deps.db,
    stores: services.stores.retailStores,
    payments: services.stores.payments,
    clock: deps.clock,
    logger: deps.logger,
    durable: groups ? () => groups.committed() : async () => undefined,
    secrets: deps.secrets,
    network: deps.terminalNetwork,
    pace: deps.paymentPace,
    maxAmount: deps.paymentMaxCents,
    orders: services.stores.orders,
    outbox: services.stores.outbox,
  });
  const mailServers = createMailServers({ db: deps.db, secrets: deps.secrets, environment: deps.mailEnvironment });
  const mailSender = createMailSender({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    servers: mailServers,
    committed: groups ? () => groups.committed() : undefined,
    options: deps.mailSender,
  });
  const conditions: ConditionSources = {
    printers: printerRecords,
    printerStates,
    payments: services.stores.payments,
    cardPayments: payments,
    syncConfigs: sync.configs,
    diskFree: deps.diskFree ?? diskFreeOf(deps.db.name),
  };
  const alertAfterMs = deps.alertWatch?.alertAfterMs ?? DEFAULT_ALERT_WATCH.alertAfterMs;
  const alerts = createAlertWatch({
    db: deps.db,
    clock: deps.clock,
    logger: deps.logger,
    alerts: alertRecords,
    stores: services.stores.retailStores,
    organizations: () => services.organizations.list().map((org) => org.id),
    observe: async (orgId) => [...(await observeKnown(conditions, orgId)), ...observeFleet(fleetDevices, orgId, deps.clock.now(), alertAfterMs)],
    observeTerminals: (orgId) => observeTerminals(conditions, orgId),
    mailsAlerts: (orgId) => mailsAlertsItself({ servers: mailServers, syncConfigs: sync.configs }, orgId),
    options: deps.alertWatch,
  });
  const daily = { db: deps.db, stores: services.stores.retailStores, suppliers: services.stores.suppliers, sales: createDailySalesStore(deps.db) };
  const dailyMail = createDailyMailSchedule({
    sources: daily,
    clock: deps.clock,
    logger: deps.logger,
    organizations: () => services.organizations.list().map((org) => org.id),
    at: deps.dailyMailAt ?? '06:00',
  });
  const mail = createMailService({ db: deps.db, clock: deps.clock, servers: mailServers, sender: mailSender, daily });
  const receiptPrinting = createReceiptPrinting({ services, ...printing, cardReceiptOf: payments.service.cardReceiptOf });
  const reportPrinting = createReportPrinting({ services, ...printing, reconcile: payments.cardDay.reconcile });
  const app = express();
  app.disable('x-powered-by');
  // List pages can be megabytes; hashing each one for an ETag costs more than it saves on localhost.
  app.set('etag', false);
  app.use(inOrder(requestLog(deps.logger), securityHeaders(`${API_PREFIX}/${IMAGES_PATH}`), localGuard(deps.localNames)));

  const api = express.Router();
  if (groups) api.use(readsAfterCommit(groups));
  const health = { version: VERSION, searchState: () => services.search.state() };
  api.use(
    bySegment([
      [['health', 'update', 'openapi.json'], systemRoutes({ ...health, updateStatus: deps.updateStatus ?? (() => offUpdateStatus(VERSION)) })],
      [[IMAGES_PATH], storedImageRoutes(productImages)],
    ]),
  );
  const signIns = createStaffSignIns({ db: deps.db, clock: deps.clock });
  const keyChecks = [authenticate(services.organizations, signIns), writeKeysOverTls];
  if (!deps.withoutPermissionCheck) keyChecks.push(enforcePermissions());
  api.use(inOrder(...keyChecks));
  api.use(
    bySegment([
      [['keys'], keyRoutes(services.organizations, JSON_BODY_LIMIT)],
      [['staff'], staffSignInRoutes(signIns)],
    ]),
  );
  api.use('/identity-logs', identityLogFeatureGate);
  const horizons = createFeedHorizonStore(deps.db);
  api.use(feedHorizon(horizons));
  const writeSteps = [
    express.json({ limit: JSON_BODY_LIMIT }),
    ...(groups ? [writesInGroups(groups, deps.db, errorAnswer(deps.logger))] : []),
    idempotency(createIdempotencyKeyStore(deps.db), deps.clock),
    syncBase(createSyncWriterStore(deps.db)),
    scheduleSyncAfterWrites(sync.worker),
  ];
  api.use(forWritesOnly(...writeSteps));
  api.use(
    bySegment([
      [['products'], productRoutes(services.products)],
      [['products'], productImageRoutes(productImages, { publicUrl: deps.publicUrl })],
      [['suppliers'], supplierRoutes(services.suppliers)],
      [['categories'], categoryRoutes(services.categories)],
      [['catalog'], catalogRoutes(catalogFilesOf(services, deps.db, groups))],
      [['stores'], storeRoutes(services.retailStores)],
      [['orders'], orderRoutes(services.orders)],
      [['printers'], printerRoutes(printers)],
      [['receipts'], receiptRoutes(receiptPrinting)],
      [['terminals'], terminalRoutes(payments.terminals)],
      [['payments', 'terminals'], paymentRoutes(payments.service)],
      [['reports'], reportRoutes(services.reports, reportPrinting, payments.cardDay)],
      [['identity-logs'], identityLogRoutes(services.identityLogs, deps.clock, createRateWindowStore(deps.db))],
      [['sync'], syncRoutes(sync.admin)],
      [['fleet'], fleetRoutes(fleet)],
      [['mail'], mailRoutes(mail)],
      [['alerts'], alertRoutes(alerts)],
      [['settlements', 'payout-account'], settlementRoutes(createSettlements({ db: deps.db, clock: deps.clock, stores: services.stores.retailStores, suppliers: services.stores.suppliers, groups }))],
      [['system'], systemInfoRoutes({ version: VERSION, databaseFile: deps.db.name, tlsFingerprint: deps.tlsFingerprint })],
    ]),
  );
  const errorHandlers = [routeErrorHandler(deps.logger), errorHandler(deps.logger)] as const;
  api.use(errorHandlers[0]);

  app.use(API_PREFIX, compressJsonAnswers(), api);
  // The kiosk screen at `/` (also the Electron window's content) and the status page at `/status`, as `npm run build` bundles them.
  app.use(express.static(join(PROJECT_ROOT, 'dist', 'renderer'), { index: 'index.html', extensions: ['html'], dotfiles: 'ignore', redirect: false }));
  app.use(notFoundHandler);
  app.use(errorHandlers[1]);
  const hot = hotReads({
    prefix: API_PREFIX,
    services,
    horizons,
    health: () => healthOf(health),
    groups,
    localNames: deps.localNames,
    logger: deps.logger,
    checkPermissions: !deps.withoutPermissionCheck,
    parseQuery: app.get('query parser fn') as (query: string) => ParsedUrlQuery,
    fallback: (req, res) => void app(req, res),
  });
  const hotWrite = hotWrites({
    prefix: API_PREFIX,
    app,
    organizations: services.organizations,
    localNames: deps.localNames,
    logger: deps.logger,
    checkPermissions: !deps.withoutPermissionCheck,
    writeSteps,
    errorHandlers,
    routes: { 'POST /orders': takeOrder(services.orders), 'POST /fleet/heartbeat': takeHeartbeat(fleet) },
  });
  const serve: RequestListener = (req, res) => {
    if (!hot(req, res) && !hotWrite(req, res)) void app(req, res);
  };
  return { app, serve, services, sync, retention, groups, payments, mail: mailSender, alerts, dailyMail };
}
