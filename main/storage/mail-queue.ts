import type { Db } from './database.js';

export type MailKind = 'daily-sales' | 'statement' | 'alert' | 'alert-resolved' | 'test';
export type MailState = 'queued' | 'sent' | 'failed';

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

/** A mail as queued; `headers` are extra header lines such as `X-Alert-Kind`. */
export interface MailRecord {
  id: string;
  orgId: string;
  kind: MailKind;
  onceKey: string | null;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  headers: Record<string, string>;
  messageId: string;
  state: MailState;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string;
  createdAt: string;
  sentAt: string | null;
}

interface Row {
  id: string;
  org_id: string;
  kind: MailKind;
  once_key: string | null;
  to_address: string;
  subject: string;
  text: string;
  html: string | null;
  headers: string | null;
  message_id: string;
  state: MailState;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
  created_at: string;
  sent_at: string | null;
}

const fromRow = (row: Row): MailRecord => ({
  id: row.id,
  orgId: row.org_id,
  kind: row.kind,
  onceKey: row.once_key,
  to: row.to_address,
  subject: row.subject,
  text: row.text,
  html: row.html,
  headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
  messageId: row.message_id,
  state: row.state,
  attempts: row.attempts,
  lastError: row.last_error,
  nextAttemptAt: row.next_attempt_at,
  createdAt: row.created_at,
  sentAt: row.sent_at,
});

export interface ListPosition {
  createdAt: string;
  id: string;
}

export function createMailQueueStore(db: Db) {
  const insert = db.prepare(
    `INSERT INTO mail_queue (id, org_id, kind, once_key, to_address, subject, text, html, headers, message_id, state, attempts, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'queued', 0, ?, ?) ON CONFLICT DO NOTHING`,
  );
  const insertAttachment = db.prepare('INSERT INTO mail_attachments (mail_id, position, filename, content_type, content) VALUES (?, ?, ?, ?, ?)');
  const attachmentsOf = db.prepare<[string], { filename: string; content_type: string; content: Buffer }>(
    'SELECT filename, content_type, content FROM mail_attachments WHERE mail_id = ? ORDER BY position',
  );
  const due = db.prepare<[string, number], Row>("SELECT * FROM mail_queue WHERE state = 'queued' AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?");
  const nextDue = db.prepare<[], string>("SELECT MIN(next_attempt_at) FROM mail_queue WHERE state = 'queued'").pluck();
  const byId = db.prepare<[string], Row>('SELECT * FROM mail_queue WHERE id = ?');
  const newest = db.prepare<[string, number], Row>('SELECT * FROM mail_queue WHERE org_id = ? ORDER BY created_at DESC, id DESC LIMIT ?');
  const newestAfter = db.prepare<[string, string, string, string, number], Row>(
    'SELECT * FROM mail_queue WHERE org_id = ? AND (created_at < ? OR (created_at = ? AND id < ?)) ORDER BY created_at DESC, id DESC LIMIT ?',
  );
  const markSent = db.prepare<[number, string, string]>("UPDATE mail_queue SET state = 'sent', attempts = ?, last_error = NULL, sent_at = ? WHERE id = ? AND state = 'queued'");
  const markRetry = db.prepare<[number, string, string, string]>("UPDATE mail_queue SET attempts = ?, last_error = ?, next_attempt_at = ? WHERE id = ? AND state = 'queued'");
  const markFailed = db.prepare<[number, string, string]>("UPDATE mail_queue SET state = 'failed', attempts = ?, last_error = ? WHERE id = ? AND state = 'queued'");
  const purge = db.prepare<[string, number]>(
    "DELETE FROM mail_queue WHERE id IN (SELECT id FROM mail_queue WHERE state <> 'queued' AND created_at < ? LIMIT ?)",
  );
  const countByState = db.prepare<[string], { state: MailState; n: number }>('SELECT state, COUNT(*) AS n FROM mail_queue WHERE org_id = ? GROUP BY state');

  return {
    /** Writes the mail; false when a mail with the same `onceKey` was queued before. Call inside the caller's transaction. */
    insert(mail: Omit<MailRecord, 'state' | 'attempts' | 'lastError' | 'sentAt'>, attachments: readonly MailAttachment[]): boolean {
      const headers = Object.keys(mail.headers).length > 0 ? JSON.stringify(mail.headers) : null;
      const added = insert.run(mail.id, mail.orgId, mail.kind, mail.onceKey, mail.to, mail.subject, mail.text, mail.html, headers, mail.messageId, mail.nextAttemptAt, mail.createdAt);
      if (added.changes === 0) return false;
      attachments.forEach((file, position) => insertAttachment.run(mail.id, position, file.filename, file.contentType, file.content));
      return true;
    },
    get(id: string): MailRecord | undefined {
      const row = byId.get(id);
      return row ? fromRow(row) : undefined;
    },
    attachments(id: string): MailAttachment[] {
      return attachmentsOf.all(id).map((row) => ({ filename: row.filename, contentType: row.content_type, content: row.content }));
    },
    /** Queued mails whose next attempt is due at `now`, the longest waiting first. */
    due(now: string, limit: number): MailRecord[] {
      return due.all(now, limit).map(fromRow);
    },
    /** When the next queued mail is due; undefined when none is queued. */
    nextDueAt(): string | undefined {
      return nextDue.get() ?? undefined;
    },
    /** The organization's mails, newest first, `limit + 1` rows so the caller can tell whether more follow. */
    newest(orgId: string, limit: number, after?: ListPosition): MailRecord[] {
      const rows = after ? newestAfter.all(orgId, after.createdAt, after.createdAt, after.id, limit + 1) : newest.all(orgId, limit + 1);
      return rows.map(fromRow);
    },
    markSent(id: string, attempts: number, at: string): void {
      markSent.run(attempts, at, id);
    },
    markRetry(id: string, attempts: number, error: string, nextAttemptAt: string): void {
      markRetry.run(attempts, error, nextAttemptAt, id);
    },
    markFailed(id: string, attempts: number, error: string): void {
      markFailed.run(attempts, error, id);
    },
    /** Drops up to `limit` sent and failed mails created before `before`; queued ones stay whatever their age. */
    purgeSettled(before: string, limit: number): number {
      return purge.run(before, limit).changes;
    },
    counts(orgId: string): Record<MailState, number> {
      const counts: Record<MailState, number> = { queued: 0, sent: 0, failed: 0 };
      for (const row of countByState.all(orgId)) counts[row.state] = row.n;
      return counts;
    },
  };
}

export type MailQueueStore = ReturnType<typeof createMailQueueStore>;
