import { z } from 'zod';
import { CalendarDaySchema, CursorQuery, DateTimeSchema, IdSchema, limitQuery } from './common.js';

export const MailKindSchema = z
  .enum(['daily-sales', 'statement', 'alert', 'alert-resolved', 'test'])
  .describe("`daily-sales`: a supplier's sales of a day; `statement`: a settlement's statement; `alert`/`alert-resolved`: to the store's `adminMail`; `test`: `POST /mail/test`.");

export const MailStateSchema = z
  .enum(['queued', 'sent', 'failed'])
  .describe('`queued`: waiting for its first or next attempt; `sent`: the mail server accepted it; `failed`: the mail server refused it for good (`lastError` says why).');

export const MailSchema = z
  .object({
    id: IdSchema,
    kind: MailKindSchema,
    to: z.string().describe('Recipient address(es).'),
    subject: z.string(),
    state: MailStateSchema,
    attempts: z.int().min(0).describe('Attempts so far.'),
    lastError: z.string().nullable().describe("The mail server's words (or the connection's problem) at the last failed attempt; null after a success."),
    createdAt: DateTimeSchema.describe('When it was queued, in the transaction of what caused it.'),
    sentAt: DateTimeSchema.nullable().describe('When the mail server accepted it.'),
  })
  .meta({ id: 'Mail', description: 'A mail of the queue.' });

export const MailListQuerySchema = z
  .object({
    limit: limitQuery(),
    cursor: CursorQuery.optional(),
  })
  .strict();

export const MailSettingsSchema = z
  .strictObject({
    smtpUrl: z
      .string()
      .min(1)
      .describe('`smtp://user:password@host:587` (STARTTLS when offered) or `smtps://user:password@host:465`. Stored sealed; never answered.'),
    from: z.string().min(1).describe('Sender: `laden@example.ch` or `Laden Bern <laden@example.ch>`.'),
  })
  .meta({ id: 'MailSettings', description: "The organization's mail server; it replaces `SMTP_URL` and `MAIL_FROM` for this organization." });

export const MailTestSchema = z
  .strictObject({ to: z.string().min(1).describe('Where the test mail goes.') })
  .meta({ id: 'MailTest', description: 'A test mail to queue.' });

export const MailDailySchema = z
  .strictObject({ date: CalendarDaySchema.describe("The day whose sales go out, in each store's time zone.") })
  .meta({ id: 'MailDaily', description: "A day's supplier sales mails to queue now." });

export const MailQueuedSchema = z
  .object({ data: z.object({ queued: z.int().min(0).describe('Mails queued by this call.') }) })
  .meta({ id: 'MailQueued' });

export const MailTestQueuedSchema = z
  .object({ data: MailSchema })
  .meta({ id: 'MailTestQueued', description: 'The test mail as queued; follow it with `GET /mail`.' });

export const AlertKindSchema = z
  .enum(['terminal-unreachable', 'printer-error', 'payment-without-order', 'upstream-unreachable', 'disk-low', 'store-pc-silent'])
  .describe(
    "`terminal-unreachable`: the store's card terminal does not answer; `printer-error`: a receipt printer is out of paper, open or unreachable; " +
      '`payment-without-order`: an approved card payment no order names; `upstream-unreachable`: head office not reached; `disk-low`: under 1 GiB free on the data disk; ' +
      "`store-pc-silent` (on a hub): a store PC of the store sent no heartbeat for `ALERT_AFTER_MS`. On a hub, the list also holds the store PCs' own alerts, as their heartbeats report them.",
  );

export const AlertSchema = z
  .object({
    id: IdSchema,
    store: z.string().describe('The store concerned.'),
    kind: AlertKindSchema,
    since: DateTimeSchema.describe('When the condition started.'),
    endedAt: DateTimeSchema.nullable().describe('When it ended; null while it lasts.'),
  })
  .meta({ id: 'Alert', description: 'A condition that lasted `ALERT_AFTER_MS` or longer.' });
