import type { Express } from 'express';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { UpdateStatus } from '../shared/api/update-status.js';
import { API_PREFIX, createApp } from './app.js';
import { bootstrapOrganization } from './bootstrap.js';
import type { Config } from './config.js';
import { batchedStdout } from './http/request-log.js';
import { IMAGES_DIR, openImageStore } from './images/store.js';
import { checkInstallation, markInstallation } from './installation/check-installation.js';
import { startDailyPurge } from './retention/daily-purge.js';
import { createPersonalDataRetention } from './retention/personal-data.js';
import { startPurgeSchedule } from './retention/purge-schedule.js';
import type { SearchBuildOptions } from './search/product-search.js';
import { localNames } from './security/local-names.js';
import { tightenDataFolder } from './security/private-files.js';
import { openSecretBox, type KeyWrapper } from './security/secret-box.js';
import { loadTls, type TlsMaterial } from './security/tls.js';
import type { FollowPace } from './payments/payment-settling.js';
import type { SyncOptions } from './sync/index.js';
import type { SyncAdmin } from './sync/sync-admin.js';
import type { Services } from './services/index.js';
import type { MailSenderOptions } from './mail/mail-sender.js';
import type { AlertWatchOptions } from './alerts/alert-watch.js';
import { systemClock, type Clock } from './services/clock.js';
import { lockDataFolder } from './storage/data-folder-lock.js';
import { dropUnfinishedSettlements } from './storage/settlements.js';
import { DATABASE_FILE, openDatabase, type Db, type Synchronous } from './storage/database.js';
import { DEFAULT_GROUP_COMMIT } from './storage/group-commit.js';

export interface RunningServer {
  /** Base URL of the API, e.g. http://127.0.0.1:8787/api/v1 (https:// with TLS on) */
  url: string;
  /** SHA-256 fingerprint of the certificate served, when TLS is on. */
  tlsFingerprint: string | undefined;
  port: number;
  /** Credentials file written on first start, if this start wrote one. */
  credentialsFile: string | undefined;
  /**
   * The Express app alone, without the hot reads and writes in front of it
   * (http/hot-reads.ts, http/hot-writes.ts), over the same database: what
   * the hot path must answer exactly like.
   */
  app: Express;
  /**
   * The server's own connection and what runs over it, for code in the
   * server's process that writes to its data (a test preparing data): a
   * second connection in this process would wait for this one's write lock
   * on the very event loop that has to release it.
   */
  inProcess: { db: Db; services: Services; syncAdmin: SyncAdmin };
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
  /**
   * Ends the process once a flush to disk failed and writes stopped; it must
   * not close the database (closing checkpoints the WAL). Default: exit with
   * `DISK_FAILURE_EXIT_CODE`; the desktop app relaunches itself.
   */
  onDiskFailure?: () => void;
  /** Time between two runs of the data purge, in milliseconds; default an hour. */
  purgeIntervalMs?: number;
  /** The system's protection of the key file that seals stored secrets (the desktop app's safeStorage); unset, a plain key file. */
  keyWrapper?: KeyWrapper | undefined;
  /** How often a terminal is asked about a payment whose answer was lost; default from 1 s, doubling up to 30 s. */
  paymentPace?: FollowPace;
  /** Pace and SMTP timeouts of the mail sender; default from 30 s doubling up to an hour between attempts. */
  mailSender?: Partial<MailSenderOptions>;
  /** Pace of the alert watch (`alertAfterMs` from `ALERT_AFTER_MS` unless given here). */
  alertWatch?: Partial<AlertWatchOptions>;
  /** Bytes free on the data disk; default what the system says. */
  diskFree?: () => Promise<number>;
}

/** Opens the data folder and serves the API. Used by `npm start`, Electron and tests alike. */
/** The exit status after a failed flush to disk (EX_IOERR): whatever supervises the server starts it again. */
export const DISK_FAILURE_EXIT_CODE = 74;

/** How often `close()` says what it still waits for. */
const CLOSE_REPORT_MS = 5_000;

/**
 * Fail-stop: the log says why, then the process ends without closing the
 * database, so no checkpoint copies pages a failed flush may have lost: the
 * next start's recovery replays the WAL, which still holds every commit.
 */
function stopAfterDiskFailure(logger: Logger, exit: () => void): (failure: unknown) => void {
  return (failure) => {
    logger.fatal({ err: failure }, 'a flush to disk failed: writes stopped; the server exits without a checkpoint, and the next start recovers from the write-ahead log');
    // Not unref'd: an idle event loop would end the process the ordinary way, which closes the database.
    const fallback = setTimeout(exit, 1000);
    logger.flush(() => {
      clearTimeout(fallback);
      exit();
    });
  };
}

export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: config.logLevel }, batchedStdout());
  tightenDataFolder(config.dataDir);
  const unlock = lockDataFolder(config.dataDir, 'server');
  let db: Db;
  try {
    db = openDatabase(join(config.dataDir, DATABASE_FILE), { synchronous: options.synchronous ?? 'FULL' });
  } catch (err) {
    unlock();
    throw err;
  }
  const clock = options.clock ?? systemClock;
  let tls: TlsMaterial | undefined;
  let renewed: ReturnType<typeof checkInstallation>['renewed'];
  try {
    tls = config.tls ? await loadTls(config.tls, config.dataDir, config.host) : undefined;
    renewed = checkInstallation(config.dataDir, db, clock).renewed;
  } catch (err) {
    db.close();
    unlock();
    throw err;
  }
  if (renewed) logger.info({ reason: renewed }, 'new installation id: this data folder is new, a copy or an older database');
  const dropped = dropUnfinishedSettlements(db);
  if (dropped > 0) logger.warn({ settlements: dropped }, 'a settlement cut off by the last stop was dropped; its sales are unsettled and the next settlement takes them');
  const images = openImageStore(join(config.dataDir, IMAGES_DIR));
  const groupCommitMs = config.groupCommitMs ?? DEFAULT_GROUP_COMMIT.windowMs;
  const secrets = openSecretBox(config.dataDir, options.keyWrapper);
  const { app, serve, services, sync, retention, groups, payments, mail, alerts, dailyMail } = createApp({
    db,
    clock,
    logger,
    secrets,
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
    printerNetwork: config.printerNetwork,
    terminalNetwork: config.terminalNetwork,
    paymentPace: options.paymentPace,
    paymentMaxCents: config.paymentMaxCents,
    tlsFingerprint: tls?.fingerprint,
    deviceName: config.deviceName,
    fleetThresholds: config.fleetThresholds,
    withoutPermissionCheck: options.withoutPermissionCheck,
    retention: config.retention,
    groupCommit:
      groupCommitMs === 0
        ? false
        : { ...DEFAULT_GROUP_COMMIT, windowMs: groupCommitMs, unattendedWindowMs: config.syncGroupCommitMs ?? DEFAULT_GROUP_COMMIT.unattendedWindowMs },
    mailEnvironment: config.mail,
    mailSender: options.mailSender,
    alertWatch: { ...(config.alertAfterMs !== undefined ? { alertAfterMs: config.alertAfterMs } : {}), ...options.alertWatch },
    diskFree: options.diskFree,
    dailyMailAt: config.dailyMailAt,
    onDiskFailure: stopAfterDiskFailure(logger, options.onDiskFailure ?? (() => process.exit(DISK_FAILURE_EXIT_CODE))),
  });
  let sealed: number;
  try {
    sealed = sync.configs.sealClearKeys();
  } catch (err) {
    db.close();
    unlock();
    throw err;
  }
  if (sealed > 0) logger.info({ sealed }, 'upstream keys stored in clear by an older version are sealed now');

  let server: Server;
  try {
    // Before the kiosk is served: payments left open by the last run are settled with their terminals,
    // or, when a terminal does not answer, asked about in the background while their sales stay locked.
    await payments.settling.settleOpen();
    server = await new Promise<Server>((resolve, reject) => {
      const s = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, serve) : createHttpServer(serve);
      s.once('error', reject);
      s.listen(config.port, config.host, () => {
        s.off('error', reject);
        resolve(s);
      });
    });
  } catch (err) {
    payments.settling.stop();
    db.close();
    unlock();
    throw err;
  }
  const port = (server.address() as AddressInfo).port;
  const hostForUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `${tls ? 'https' : 'http'}://${hostForUrl}:${port}${API_PREFIX}`;
  const credentialsFile = bootstrapOrganization(config.dataDir, services.organizations, url);
  // Not awaited: the API answers at once; `q` answers 503 until an organization's index is complete.
  services.search.build().catch((err: unknown) => logger.error({ err }, 'building the product search index failed'));
  const stopPurge = startDailyPurge(createPersonalDataRetention({ db, clock }), logger);
  const stopDataPurge = startPurgeSchedule(retention, clock, logger, options.purgeIntervalMs);
  sync.worker.start();
  mail.start();
  alerts.start();
  dailyMail.start();

  return {
    url,
    tlsFingerprint: tls?.fingerprint,
    port,
    credentialsFile,
    app,
    inProcess: { db, services, syncAdmin: sync.admin },
    close: async () => {
      // A shutdown that hangs says on what: one candidate is a round or a purge that does not end.
      let waitingFor = 'the data purge';
      const report = setInterval(() => logger.warn({ waitingFor }, 'shutdown still waiting'), CLOSE_REPORT_MS);
      try {
        services.search.stop();
        payments.settling.stop();
        stopPurge();
        await stopDataPurge();
        dailyMail.stop();
        waitingFor = 'the alert watch';
        await alerts.stop();
        waitingFor = 'the mails being sent';
        await mail.stop();
        waitingFor = 'the sync rounds under way';
        await sync.worker.stop();
        // Writes waiting in an open group are committed and answered before the connections close.
        groups?.flush();
        waitingFor = 'requests still being answered';
        const httpFailure = await new Promise<unknown>((resolve) => {
          server.close(resolve);
          server.closeAllConnections();
        });
        groups?.flush();
        const diskFailure = groups?.stopped();
        // After a failed flush the database is left as it is: closing it would checkpoint the WAL.
        if (diskFailure !== undefined) throw diskFailure;
        let failure = httpFailure;
        try {
          // Folds the WAL back into the database file, so a copy of retail.sqlite
          // alone (a backup, a moved data folder) holds every write.
          db.pragma('wal_checkpoint(TRUNCATE)');
          markInstallation(config.dataDir, db);
        } catch (checkpointError) {
          failure ??= checkpointError;
        }
        db.close();
        if (failure) throw failure;
      } finally {
        clearInterval(report);
        unlock();
      }
    },
  };
}

