import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { listOf, SuccessSchema } from '../api/common.js';
import {
  AlertSchema,
  MailDailySchema,
  MailListQuerySchema,
  MailQueuedSchema,
  MailSchema,
  MailSettingsSchema,
  MailTestQueuedSchema,
  MailTestSchema,
} from '../api/mail.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerMailPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/mail',
    ...EXTENSION,
    summary: 'The mail queue, newest first (Write key)',
    description:
      'Every mail this server queued: alerts, daily sales, statements, tests. A mail is retried with growing waits while the mail server is away ' +
      'or answers a temporary error (4xx) and is `failed` on a permanent refusal (5xx). Sent and failed mails are kept 90 days.',
    request: { query: MailListQuerySchema },
    responses: { 200: json(listOf(MailSchema), 'A page of mails.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/mail/test',
    ...EXTENSION,
    summary: 'Queue a test mail (Write key)',
    description: 'The mail goes out as every other one does; `GET /mail` shows whether the mail server accepted it, or its words when it did not.',
    request: { body: { content: { 'application/json': { schema: MailTestSchema } } } },
    responses: { 202: json(MailTestQueuedSchema, 'Queued.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/mail/settings',
    ...EXTENSION,
    summary: "The organization's mail server (Write key)",
    description: 'Replaces `SMTP_URL` and `MAIL_FROM` for this organization. The URL, which may hold a password, is stored sealed and never answered.',
    request: { body: { content: { 'application/json': { schema: MailSettingsSchema } } } },
    responses: { 200: json(SuccessSchema, 'Stored; the next mail uses it.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/mail/daily',
    ...EXTENSION,
    summary: "Queue a day's supplier sales mails now (Write key)",
    description:
      "One mail per supplier whose `dailyMail` holds an e-mail address and whose lines sold that day (in each store's time zone), per store: product, quantity, amount. " +
      "A supplier's mail for a day is queued once, however often this is called (also by the server itself at `DAILY_MAIL_AT`).",
    request: { body: { content: { 'application/json': { schema: MailDailySchema } } } },
    responses: { 200: json(MailQueuedSchema, 'How many mails this call queued.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/alerts',
    ...EXTENSION,
    summary: 'Open and recent alerts, open ones first (Write key)',
    description:
      "A condition that lasted `ALERT_AFTER_MS` (default 5 minutes) sends an `alert` mail to the store's `adminMail`, its end an `alert-resolved` mail; " +
      'at most one alert mail per condition and store an hour.',
    responses: { 200: json(z.object({ data: z.array(AlertSchema) }), 'The alerts.'), ...errors([403]) },
  });
}
