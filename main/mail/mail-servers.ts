import type { SecretBox } from '../security/secret-box.js';
import { BadRequest } from '../services/errors.js';
import type { Db } from '../storage/database.js';
import { createMailSettingsStore } from '../storage/mail-settings.js';
import { immediateTransaction } from '../storage/transactions.js';
import { mailAddresses } from './mail-address.js';
import type { MailEnvironment } from './mail-config.js';
import { parseSmtpUrl, SmtpUrlInvalid, type SmtpServer } from './smtp-url.js';

/** Where an organization's mail goes, or why it cannot go yet. */
export type MailRoute = { server: SmtpServer; from: string; key: string } | { problem: string };

const NOT_SET = 'no mail server is set: set SMTP_URL and MAIL_FROM, or POST /mail/settings {smtpUrl, from}';

/** The sender address in `from`, bare or as `Name <address>`. */
const addressIn = (from: string): string => from.replace(/^.*<([^>]*)>\s*$/, '$1');

/**
 * Each organization's mail server: its own (`POST /mail/settings`, the URL
 * sealed with the data folder's key) or else the environment's.
 */
export function createMailServers(deps: { db: Db; secrets: SecretBox; environment?: MailEnvironment | undefined }) {
  const store = createMailSettingsStore(deps.db);
  const environment: MailRoute = deps.environment
    ? { ...deps.environment, key: `env\n${JSON.stringify(deps.environment.server)}\n${deps.environment.from}` }
    : { problem: NOT_SET };
  return {
    routeOf(orgId: string): MailRoute {
      const own = store.get(orgId);
      if (!own) return environment;
      try {
        const url = deps.secrets.open(own.sealedSmtpUrl);
        return { server: parseSmtpUrl(url), from: own.from, key: `${orgId}\n${own.updatedAt}\n${url}\n${own.from}` };
      } catch (err) {
        return { problem: `the stored mail server cannot be used (${(err as Error).message}); set it again with POST /mail/settings` };
      }
    },
    /** Checks and stores an organization's mail server; the answer never repeats the URL. */
    set(orgId: string, settings: { smtpUrl: string; from: string }, at: Date): void {
      const problems: string[] = [];
      try {
        parseSmtpUrl(settings.smtpUrl);
      } catch (err) {
        if (!(err instanceof SmtpUrlInvalid)) throw err;
        problems.push(`smtpUrl: ${err.message}`);
      }
      if (!mailAddresses(addressIn(settings.from.trim()))) problems.push('from: must be an e-mail address such as laden@example.ch or "Laden Bern <laden@example.ch>"');
      if (problems.length > 0) throw new BadRequest(problems.join('; '));
      const sealed = deps.secrets.seal(settings.smtpUrl.trim());
      immediateTransaction(deps.db, () => store.set(orgId, { sealedSmtpUrl: sealed, from: settings.from.trim(), updatedAt: at.toISOString() }));
    },
  };
}

export type MailServers = ReturnType<typeof createMailServers>;
