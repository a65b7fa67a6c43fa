import { mailAddresses } from './mail-address.js';
import { parseSmtpUrl, SmtpUrlInvalid, type SmtpServer } from './smtp-url.js';

/** The mail server of the environment (`SMTP_URL`, `MAIL_FROM`), for organizations that set none of their own. */
export interface MailEnvironment {
  server: SmtpServer;
  from: string;
}

/** `SMTP_URL` and `MAIL_FROM`: both or neither; a URL that does not parse stops the start with a message naming the variable. */
export function readMailEnvironment(env: NodeJS.ProcessEnv): MailEnvironment | undefined {
  const url = env.SMTP_URL?.trim() ?? '';
  const from = env.MAIL_FROM?.trim() ?? '';
  if (url === '' && from === '') return undefined;
  if (url === '') throw new Error('MAIL_FROM is set but SMTP_URL is not: set both, e.g. SMTP_URL=smtp://user:password@mail.example.ch:587');
  let server: SmtpServer;
  try {
    server = parseSmtpUrl(url);
  } catch (err) {
    if (err instanceof SmtpUrlInvalid) throw new Error(`SMTP_URL: ${err.message}`);
    throw err;
  }
  if (from === '') throw new Error('SMTP_URL is set but MAIL_FROM is not: set the sender address, e.g. MAIL_FROM="Laden Bern <laden@example.ch>"');
  if (!mailAddresses(from.replace(/^.*<([^>]*)>\s*$/, '$1'))) {
    throw new Error(`MAIL_FROM must be an e-mail address such as laden@example.ch or "Laden Bern <laden@example.ch>", not ${JSON.stringify(from)}`);
  }
  return { server, from };
}

/** `ALERT_AFTER_MS`: how long a condition lasts before its alert mail; default 300,000 (5 minutes). */
export function readAlertAfterMs(env: NodeJS.ProcessEnv): number {
  const text = env.ALERT_AFTER_MS?.trim() ?? '';
  if (text === '') return 300_000;
  if (!/^\d+$/.test(text)) throw new Error(`ALERT_AFTER_MS must be a whole number of milliseconds, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** `DAILY_MAIL_AT`: the store's local time of day the suppliers' daily sales mails go out; default 06:00. */
export function readDailyMailAt(env: NodeJS.ProcessEnv): string {
  const text = env.DAILY_MAIL_AT?.trim() ?? '';
  if (text === '') return '06:00';
  const match = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!match || Number(match[1]) > 23 || Number(match[2]) > 59) throw new Error(`DAILY_MAIL_AT must be a time of day as HH:MM, e.g. 06:00, not ${JSON.stringify(text)}`);
  return `${match[1]!.padStart(2, '0')}:${match[2]}`;
}
