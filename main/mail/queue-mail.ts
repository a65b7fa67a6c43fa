import { newId } from '../rules/ids.js';
import { BadRequest } from '../services/errors.js';
import type { Db } from '../storage/database.js';
import { createMailQueueStore, type MailAttachment, type MailKind, type MailQueueStore } from '../storage/mail-queue.js';
import { mailAddresses } from './mail-address.js';

export type { MailAttachment, MailKind } from '../storage/mail-queue.js';

/** A mail to queue; see `queueMail`. */
export interface MailToQueue {
  orgId: string;
  kind: MailKind;
  /** One address, or several separated by commas. */
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  attachments?: readonly MailAttachment[] | undefined;
  /** Extra header lines, e.g. `{ 'X-Alert-Kind': 'disk-low' }`. */
  headers?: Record<string, string> | undefined;
  /**
   * Makes the mail go out once: a later call with the same key (per
   * organization) queues nothing and answers undefined. For example
   * `statement:<settlementId>:<supplierId>`.
   */
  onceKey?: string | undefined;
  /** The time of the cause (the caller's clock): the mail's creation time and its first attempt. */
  at: Date;
}

/** A mail in the queue: its id and the `Message-ID` header every attempt sends. */
export interface QueuedMail {
  id: string;
  messageId: string;
}

/** The domain of the Message-IDs this server makes; the id part alone makes each one unique. */
const MESSAGE_ID_DOMAIN = 'store-server.mail';

const stores = new WeakMap<Db, MailQueueStore>();
const listeners = new WeakMap<Db, Set<() => void>>();

/** The queue's statements on a connection, prepared once. */
export function mailQueueOf(db: Db): MailQueueStore {
  let store = stores.get(db);
  if (!store) {
    store = createMailQueueStore(db);
    stores.set(db, store);
  }
  return store;
}

/**
 * Queues a mail inside the caller's own transaction (run it within
 * `immediateTransaction(db, …)` together with the write that causes it): the
 * mail exists exactly when that write committed, and the server's sender
 * delivers it after the commit, retrying while the mail server is away.
 * Synchronous and cheap: two prepared inserts, no network.
 *
 * Throws `BadRequest` when `to` holds no e-mail address. Answers undefined
 * when `onceKey` was used before.
 */
export function queueMail(db: Db, mail: MailToQueue): QueuedMail | undefined {
  if (!mailAddresses(mail.to)) throw new BadRequest(`${JSON.stringify(mail.to)} is not an e-mail address; a mail needs one such as office@example.ch`);
  const id = newId();
  const messageId = `<${id}@${MESSAGE_ID_DOMAIN}>`;
  const at = mail.at.toISOString();
  const added = mailQueueOf(db).insert(
    {
      id,
      orgId: mail.orgId,
      kind: mail.kind,
      onceKey: mail.onceKey ?? null,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      headers: mail.headers ?? {},
      messageId,
      nextAttemptAt: at,
      createdAt: at,
    },
    mail.attachments ?? [],
  );
  if (!added) return undefined;
  for (const listener of listeners.get(db) ?? []) listener();
  return { id, messageId };
}

/**
 * Calls `listener` after each `queueMail` on this connection, inside the
 * queuing transaction: the listener must only schedule work for later.
 */
export function onMailQueued(db: Db, listener: () => void): () => void {
  let set = listeners.get(db);
  if (!set) {
    set = new Set();
    listeners.set(db, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}
