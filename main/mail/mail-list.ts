import type { ListMeta } from '../../shared/api/common.js';
import { BadRequest } from '../services/errors.js';
import { readCursor, toPage } from '../services/paging.js';
import type { Db } from '../storage/database.js';
import type { MailRecord } from '../storage/mail-queue.js';
import { immediateTransaction } from '../storage/transactions.js';
import { mailAddresses } from './mail-address.js';
import { mailQueueOf, queueMail } from './queue-mail.js';

/** A mail as `GET /mail` and `mail list` show it: no body, no attachments. */
export interface MailView {
  id: string;
  kind: MailRecord['kind'];
  to: string;
  subject: string;
  state: MailRecord['state'];
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

const viewOf = (mail: MailRecord): MailView => ({
  id: mail.id,
  kind: mail.kind,
  to: mail.to,
  subject: mail.subject,
  state: mail.state,
  attempts: mail.attempts,
  lastError: mail.lastError,
  createdAt: mail.createdAt,
  sentAt: mail.sentAt,
});

/** The organization's mails, newest first, paged by `cursor`. */
export function listMails(db: Db, orgId: string, query: { limit: number; cursor?: string | undefined }): { data: MailView[]; meta: ListMeta } {
  const after = readCursor(query.cursor);
  const rows = mailQueueOf(db).newest(orgId, query.limit, after && { createdAt: after.key, id: after.id });
  const page = toPage(rows, query.limit, (mail) => ({ key: mail.createdAt, id: mail.id }));
  return { data: page.data.map(viewOf), meta: page.meta };
}

/** Queues a test mail to `to`; the answer is the mail as listed. */
export function queueTestMail(db: Db, orgId: string, to: string, now: Date): MailView {
  if (!mailAddresses(to)) throw new BadRequest(`to: must be an e-mail address such as office@example.ch, not ${JSON.stringify(to)}`);
  const queued = immediateTransaction(db, () =>
    queueMail(db, {
      orgId,
      kind: 'test',
      to,
      subject: 'Test mail from the store server',
      text:
        `This test mail was queued by the store server at ${now.toISOString()}.\n` +
        "It arrived, so the mail server settings work: alerts and the suppliers' daily sales mails can go out.\n",
      at: now,
    }),
  );
  return viewOf(mailQueueOf(db).get(queued!.id)!);
}
