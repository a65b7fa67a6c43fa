import type { Logger } from 'pino';
import { crashPoint } from '../system/crash-point.js';
import type { Clock } from '../services/clock.js';
import { withoutFsync, type Db } from '../storage/database.js';
import type { MailRecord } from '../storage/mail-queue.js';
import { immediateTransaction } from '../storage/transactions.js';
import type { MailServers } from './mail-servers.js';
import { mailQueueOf, onMailQueued } from './queue-mail.js';
import { DEFAULT_SMTP_TIMEOUTS, judgeSendError, openSmtpTransport, type SmtpTimeouts, type SmtpTransport } from './smtp-transport.js';

export interface MailSenderOptions {
  /** Mails in flight at once (and SMTP connections per server); default 2. */
  concurrency: number;
  timeouts: SmtpTimeouts;
  /** Wait after the first temporary failure, doubled after each further one, in ms; default 30 s. */
  retryBaseMs: number;
  /** Longest wait between two attempts, in ms; default an hour. */
  retryMaxMs: number;
  /** Longest the sender sleeps before it looks at the queue again, in ms; default 5 s (a mail the CLI queued waits no longer). */
  idleCheckMs: number;
  /** PEM of certificate authorities trusted beyond the system's, for a mail server with a certificate of its own CA. */
  trustedCa?: string | undefined;
}

export const DEFAULT_MAIL_SENDER: MailSenderOptions = {
  concurrency: 2,
  timeouts: DEFAULT_SMTP_TIMEOUTS,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  idleCheckMs: 5_000,
};

/** The wait before attempt `attempts + 1`: doubling from `baseMs` up to `maxMs`, then a random half of it taken off, so queues of several PCs do not retry in step. */
export function retryDelayMs(attempts: number, options: Pick<MailSenderOptions, 'retryBaseMs' | 'retryMaxMs'>, random: number = Math.random()): number {
  const full = Math.min(options.retryMaxMs, options.retryBaseMs * 2 ** Math.min(attempts - 1, 30));
  return Math.round(full / 2 + (random * full) / 2);
}

/**
 * Delivers the mail queue from inside the server: after each commit that
 * queued a mail, and whenever a retry falls due. SMTP runs outside any
 * transaction, at most `concurrency` mails at once; only the short
 * bookkeeping of each outcome writes. A mail is marked sent only after the
 * server accepted it, so a crash in between sends it again with the same
 * Message-ID, never loses it.
 */
export function createMailSender(deps: {
  db: Db;
  clock: Clock;
  logger: Logger;
  servers: MailServers;
  /** Resolves once every write so far is on disk: a mail is sent only once its queuing committed. */
  committed?: (() => Promise<void>) | undefined;
  options?: Partial<MailSenderOptions> | undefined;
}) {
  const options = { ...DEFAULT_MAIL_SENDER, ...deps.options };
  const queue = mailQueueOf(deps.db);
  const transports = new Map<string, SmtpTransport>();
  const inFlight = new Set<string>();
  const deliveries = new Set<Promise<void>>();
  let running = false;
  let pumping = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  // An attempt's outcome skips its own fsync (the next durable commit carries it): lost in a power cut, the mail is only sent again with its Message-ID.
  const write = (what: string, work: () => void) => {
    try {
      withoutFsync(deps.db, () => immediateTransaction(deps.db, work));
    } catch (err) {
      deps.logger.error({ err }, `recording a mail's ${what} failed; it stays queued`);
    }
  };

  const transportOf = (key: string, route: Extract<ReturnType<MailServers['routeOf']>, { key: string }>) => {
    let transport = transports.get(key);
    if (!transport) {
      transport = openSmtpTransport(route.server, options.timeouts, options.concurrency, options.trustedCa);
      transports.set(key, transport);
    }
    return transport;
  };

  const retry = (mail: MailRecord, attempts: number, reason: string) => {
    const at = new Date(deps.clock.now().getTime() + retryDelayMs(attempts, options)).toISOString();
    write('retry', () => queue.markRetry(mail.id, attempts, reason, at));
  };

  async function deliver(mail: MailRecord): Promise<void> {
    const attempts = mail.attempts + 1;
    const route = deps.servers.routeOf(mail.orgId);
    if ('problem' in route) {
      retry(mail, attempts, route.problem);
      return;
    }
    try {
      crashPoint('before-mail-sent');
      await transportOf(route.key, route).send({
        from: route.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
        messageId: mail.messageId,
        date: new Date(mail.createdAt),
        headers: mail.headers,
        attachments: queue.attachments(mail.id),
      });
    } catch (err) {
      const verdict = judgeSendError(err);
      deps.logger.warn({ mail: mail.id, kind: mail.kind, attempts, reason: verdict.reason }, verdict.kind === 'permanent' ? 'the mail server refused a mail for good' : 'a mail could not be sent; it is tried again later');
      if (verdict.kind === 'permanent') write('failure', () => queue.markFailed(mail.id, attempts, verdict.reason));
      else retry(mail, attempts, verdict.reason);
      return;
    }
    crashPoint('after-mail-accepted');
    write('delivery', () => queue.markSent(mail.id, attempts, deps.clock.now().toISOString()));
  }

  function arm(): void {
    clearTimeout(timer);
    if (!running || inFlight.size >= options.concurrency) return;
    const next = queue.nextDueAt();
    const wait = next === undefined ? options.idleCheckMs : Math.min(options.idleCheckMs, Math.max(0, Date.parse(next) - deps.clock.now().getTime()));
    timer = setTimeout(kick, wait);
    timer.unref();
  }

  async function pump(): Promise<void> {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        await deps.committed?.();
        if (!running) return;
        const free = options.concurrency - inFlight.size;
        if (free <= 0) break;
        const due = queue.due(deps.clock.now().toISOString(), free + inFlight.size).filter((mail) => !inFlight.has(mail.id));
        for (const mail of due.slice(0, free)) {
          inFlight.add(mail.id);
          const delivery = deliver(mail)
            .catch((err: unknown) => deps.logger.error({ err, mail: mail.id }, 'sending a mail failed unexpectedly; it stays queued'))
            .finally(() => {
              inFlight.delete(mail.id);
              deliveries.delete(delivery);
              kick();
            });
          deliveries.add(delivery);
        }
      } while (again);
    } catch (err) {
      deps.logger.error({ err }, 'reading the mail queue failed; it is read again later');
    } finally {
      pumping = false;
    }
    arm();
  }

  function kick(): void {
    if (running) void pump();
  }

  let unlisten = () => {};
  return {
    start(): void {
      if (running) return;
      running = true;
      // Called inside the queuing transaction: the pump waits a turn, then for the commit.
      unlisten = onMailQueued(deps.db, () => setImmediate(kick));
      kick();
    },
    /** Looks at the queue now, e.g. after the clock was stepped in a test or the settings changed. */
    wake(): void {
      kick();
    },
    /** Drops open connections, so the next mail uses the settings of the moment. */
    settingsChanged(): void {
      for (const transport of transports.values()) transport.close();
      transports.clear();
      kick();
    },
    /** Stops taking mails, waits for those in flight (each bounded by the SMTP timeouts), closes the connections. */
    async stop(): Promise<void> {
      running = false;
      unlisten();
      clearTimeout(timer);
      await Promise.allSettled([...deliveries]);
      for (const transport of transports.values()) transport.close();
      transports.clear();
    },
  };
}

export type MailSender = ReturnType<typeof createMailSender>;
