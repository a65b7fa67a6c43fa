import { mailAddresses } from '../mail/mail-address.js';
import type { MailView } from '../mail/mail-list.js';
import { listMails, queueTestMail } from '../mail/mail-list.js';
import { systemClock } from '../services/clock.js';
import type { Services } from '../services/index.js';
import { NotFound } from '../services/errors.js';
import { need, UsageError, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

/** `--org`, or the data folder's only organization. */
function organizationOf(services: Services, given: string | boolean | undefined): string {
  if (typeof given === 'string' && given !== '') {
    if (!services.stores.organizations.get(given)) throw new NotFound('Organization', given);
    return given;
  }
  const all = services.organizations.list();
  if (all.length === 1) return all[0]!.id;
  throw new UsageError(all.length === 0 ? 'This data folder has no organization yet' : 'This data folder has several organizations: name one with --org <orgId>');
}

function mailTable(mails: MailView[]): string {
  if (mails.length === 0) return 'No mail queued yet.';
  const rows = [
    ['created', 'kind', 'to', 'state', 'attempts', 'subject / last error'],
    ...mails.map((m) => [m.createdAt, m.kind, m.to, m.state, String(m.attempts), m.lastError ? `${m.subject} — ${m.lastError}` : m.subject]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

const orgOption = { org: { type: 'string' } } as const;

export const mailCommands: CliCommand[] = [
  {
    name: 'mail test',
    usage: '<to> [--org <orgId>]',
    options: orgOption,
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, (services, db) => {
        const to = need(args[0], '<to>');
        if (!mailAddresses(to)) throw new UsageError(`<to> must be an e-mail address such as office@example.ch, not ${JSON.stringify(to)}`);
        const mail = queueTestMail(db, organizationOf(services, values.org), to, systemClock.now());
        return { json: mail, text: `Test mail to ${mail.to} queued (${mail.id}); the running server sends it. See it with: mail list` };
      }),
  },
  {
    name: 'mail list',
    usage: '[--org <orgId>] [--limit <n>]',
    options: { ...orgOption, limit: { type: 'string' } },
    run: ({ values, dataDir }) =>
      withServices(dataDir, (services, db) => {
        const limit = values.limit === undefined ? 50 : Number(values.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 5000) throw new UsageError('--limit must be a whole number from 1 to 5000');
        const page = listMails(db, organizationOf(services, values.org), { limit });
        return { json: page, text: mailTable(page.data) };
      }),
  },
];
