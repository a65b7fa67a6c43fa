import type { Migration } from './index.js';

/**
 * The mail queue: a mail is a row written in the transaction of what caused
 * it, so a crash or a week offline loses none. `once_key` makes a mail that
 * must go out once (a supplier's daily sales for a day, a settlement's
 * statement) refuse a second copy. Attachments sit in their own table so the
 * list and the sender's scan never read their bytes.
 */
export const mailQueue: Migration = {
  version: 47,
  name: 'mail-queue',
  sql: `
CREATE TABLE mail_queue (
  id TEXT PRIMARY KEY,
  org_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  once_key TEXT,
  to_address TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  html TEXT,
  headers TEXT,
  message_id TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'queued',
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  sent_at TEXT
);
CREATE UNIQUE INDEX mail_queue_once ON mail_queue (org_id, once_key) WHERE once_key IS NOT NULL;
CREATE INDEX mail_queue_due ON mail_queue (next_attempt_at) WHERE state = 'queued';
CREATE INDEX mail_queue_newest ON mail_queue (org_id, created_at, id);
CREATE INDEX mail_queue_settled ON mail_queue (created_at) WHERE state <> 'queued';
CREATE TABLE mail_attachments (
  mail_id TEXT NOT NULL REFERENCES mail_queue (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  filename TEXT NOT NULL,
  content_type TEXT NOT NULL,
  content BLOB NOT NULL,
  PRIMARY KEY (mail_id, position)
) WITHOUT ROWID;
CREATE TABLE mail_settings (
  org_id TEXT PRIMARY KEY,
  sealed_smtp_url TEXT NOT NULL,
  from_address TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
`,
};
