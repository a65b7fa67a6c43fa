import { resolve } from 'node:path';
import { terminalNetworkPolicy, type TerminalNetworkPolicy } from './payments/terminal-network.js';
import { printerNetworkPolicy, type PrinterNetworkPolicy } from './receipts/printer-network.js';
import { DEFAULT_BEHIND_SECONDS, DEFAULT_OFFLINE_SECONDS, type FleetThresholds } from './rules/fleet-state.js';
import type { RetentionSettings } from './retention/data-retention.js';
import { parsePublicUrl } from './rules/image-urls.js';
import { parseAllowedHosts, parseAllowedOrigins } from './security/config.js';
import { parseTlsSetting, type TlsSetting } from './security/tls.js';
import { readAlertAfterMs, readDailyMailAt, readMailEnvironment, type MailEnvironment } from './mail/mail-config.js';

/** Settings of the server and the CLI, read from the environment. */
export interface Config {
  /** `HOST`: interface to bind; default 127.0.0.1 (this machine only). */
  host: string;
  /** `PORT`: TCP port; default 8787; 0 picks a free one. */
  port: number;
  /** `DATA_DIR`: folder of the SQLite file and the image store; default ./data. */
  dataDir: string;
  /** `LOG_LEVEL`: pino level (fatal, error, warn, info, debug, silent); default info. */
  logLevel: string;
  /**
   * `PUBLIC_URL`: absolute base URL (e.g. http://kasse-1.local:8787) used to build
   * image URLs, for when browsers reach the server under another name; unset,
   * each request's own host is used.
   */
  publicUrl?: string | undefined;
  /**
   * `ALLOWED_HOSTS`: further names of this server (comma-separated), beyond
   * localhost, 127.0.0.1, [::1], `HOST`, `PUBLIC_URL`'s host and the address a
   * request arrives on; a request addressed to any other name gets 403.
   */
  allowedHosts?: string[] | undefined;
  /**
   * `ALLOWED_ORIGINS`: origins of web apps (e.g. https://backoffice.example) that
   * may call the API from a browser; they get CORS headers. Any other foreign
   * `Origin` gets 403.
   */
  allowedOrigins?: string[] | undefined;
  /**
   * `PRINTER_PORTS` (ports and ranges, default 9100-9102) and
   * `PRINTER_ALLOW_ADDRESSES` (`loopback` and CIDR ranges allowed beyond the
   * private LAN): where registered printers may be. Unset, the defaults.
   */
  printerNetwork?: PrinterNetworkPolicy | undefined;
  /** `TERMINAL_ALLOW_ADDRESSES` (`loopback` and CIDR ranges, any port): where card terminals may be beyond the private LAN on port 8443. */
  terminalNetwork?: TerminalNetworkPolicy | undefined;
  /** `PAYMENT_MAX_CENTS`: the largest amount one card payment may charge, in cents; default 500000 (CHF 5,000). */
  paymentMaxCents?: number | undefined;
  /**
   * `TLS_CERT` and `TLS_KEY` (PEM file paths), or `TLS=self-signed` (a certificate
   * made at first start in `DATA_DIR/tls`): serve HTTPS. Unset, plain HTTP.
   */
  tls?: TlsSetting | undefined;
  /** `DEVICE_NAME`: this PC's name in the upstream's fleet list; default the host name. */
  deviceName?: string | undefined;
  /** `FLEET_BEHIND_SECONDS`, `FLEET_OFFLINE_SECONDS`: when a store PC in this server's fleet counts as behind or offline. */
  fleetThresholds?: FleetThresholds | undefined;
  /**
   * `OUTBOX_RETENTION_DAYS` (30), `DELETED_RETENTION_DAYS` (90),
   * `SYNCED_ORDER_RETENTION_DAYS` (400): how long pushed outbox entries,
   * soft-deleted records and a synced organization's orders are kept.
   */
  retention?: Partial<RetentionSettings> | undefined;
  /**
   * `GROUP_COMMIT_MS`: how long a write waits for others to share its commit
   * (and its fsync), in ms; default 2; 0 commits each write on its own.
   */
  groupCommitMs?: number | undefined;
  /**
   * `SYNC_GROUP_COMMIT_MS`: the same for a write no person waits for (a store
   * PC's pushed sales and heartbeats, at its upstream), in ms; default 10.
   */
  syncGroupCommitMs?: number | undefined;
  /** `SMTP_URL` and `MAIL_FROM`: the mail server of organizations that set none with `POST /mail/settings`. */
  mail?: MailEnvironment | undefined;
  /** `ALERT_AFTER_MS`: how long a condition lasts before its alert mail; default 300,000. */
  alertAfterMs?: number | undefined;
  /** `DAILY_MAIL_AT`: the store's local time (HH:MM) of the suppliers' daily sales mails; default 06:00. */
  dailyMailAt?: string | undefined;
}

/** `PAYMENT_MAX_CENTS`: undefined when unset, else a whole number of cents, 1 or more. */
function paymentMaxCents(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,12}$/.test(value) || Number(value) < 1) throw new Error(`PAYMENT_MAX_CENTS must be a whole number of cents, 1 or more (500000 for CHF 5,000), not ${JSON.stringify(value)}`);
  return Number(value);
}

/** A group commit window from the environment: undefined when unset, else a whole number of ms from 0 to 1000. */
function windowMs(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Number(value);
  if (!(Number.isInteger(ms) && ms >= 0 && ms <= 1000)) {
    throw new Error(`${name} must be a whole number of milliseconds from 0 to 1000, not ${JSON.stringify(value)}`);
  }
  return ms;
}

function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`${name} must be a whole number of seconds, 1 or more, not ${JSON.stringify(value)}`);
  return number;
}

const RETENTION_VARIABLES = { outboxDays: 'OUTBOX_RETENTION_DAYS', deletedDays: 'DELETED_RETENTION_DAYS', syncedOrderDays: 'SYNCED_ORDER_RETENTION_DAYS' } as const;

/** The retention settings given in the environment; each a whole number of days from 1 to 36,500. */
function readRetention(env: NodeJS.ProcessEnv): Partial<RetentionSettings> {
  const settings: Partial<RetentionSettings> = {};
  for (const [setting, variable] of Object.entries(RETENTION_VARIABLES) as [keyof RetentionSettings, string][]) {
    const text = env[variable];
    if (text === undefined || text === '') continue;
    if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 36_500) {
      throw new Error(`${variable} must be a whole number of days from 1 to 36500, not ${JSON.stringify(text)}`);
    }
    settings[setting] = Number(text);
  }
  return settings;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, not ${JSON.stringify(env.PORT)}`);
  }
  const groupCommitMs = windowMs('GROUP_COMMIT_MS', env.GROUP_COMMIT_MS);
  const syncGroupCommitMs = windowMs('SYNC_GROUP_COMMIT_MS', env.SYNC_GROUP_COMMIT_MS);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: resolve(env.DATA_DIR || './data'),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: env.PUBLIC_URL ? parsePublicUrl(env.PUBLIC_URL) : undefined,
    allowedHosts: parseAllowedHosts(env.ALLOWED_HOSTS),
    allowedOrigins: parseAllowedOrigins(env.ALLOWED_ORIGINS),
    printerNetwork: printerNetworkPolicy(env),
    terminalNetwork: terminalNetworkPolicy(env),
    paymentMaxCents: paymentMaxCents(env.PAYMENT_MAX_CENTS),
    tls: parseTlsSetting(env),
    deviceName: env.DEVICE_NAME?.trim() || undefined,
    fleetThresholds: {
      behindMs: seconds('FLEET_BEHIND_SECONDS', env.FLEET_BEHIND_SECONDS, DEFAULT_BEHIND_SECONDS) * 1000,
      offlineMs: seconds('FLEET_OFFLINE_SECONDS', env.FLEET_OFFLINE_SECONDS, DEFAULT_OFFLINE_SECONDS) * 1000,
    },
    retention: readRetention(env),
    groupCommitMs,
    syncGroupCommitMs,
    mail: readMailEnvironment(env),
    alertAfterMs: readAlertAfterMs(env),
    dailyMailAt: readDailyMailAt(env),
  };
}
