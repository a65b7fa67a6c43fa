import { createTransport } from 'nodemailer';
import type { SmtpServer } from './smtp-url.js';

/** How long each step of a conversation with the mail server may take, in ms. */
export interface SmtpTimeouts {
  /** TCP (and TLS) connection; default 10 s. */
  connectMs: number;
  /** The server's greeting after connecting; default 10 s. */
  greetingMs: number;
  /** Silence within the conversation (a slow DATA answer included); default 60 s. */
  socketMs: number;
}

export const DEFAULT_SMTP_TIMEOUTS: SmtpTimeouts = { connectMs: 10_000, greetingMs: 10_000, socketMs: 60_000 };

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  messageId: string;
  date: Date;
  headers: Record<string, string>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

export interface SmtpTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/**
 * A pooled SMTP connection set to one server: at most `connections` mails in
 * flight, each connection reused for up to 100 mails. `smtp://` upgrades with
 * STARTTLS whenever the server offers it; the certificate is checked.
 */
export function openSmtpTransport(server: SmtpServer, timeouts: SmtpTimeouts, connections: number, trustedCa?: string): SmtpTransport {
  const transport = createTransport({
    pool: true,
    maxConnections: connections,
    maxMessages: 100,
    // The queue retries with its own waits and records each attempt; the pool's own quiet requeues would hide them.
    maxRequeues: 0,
    host: server.host,
    port: server.port,
    secure: server.secure,
    auth: server.user !== undefined ? { user: server.user, pass: server.pass ?? '' } : undefined,
    connectionTimeout: timeouts.connectMs,
    greetingTimeout: timeouts.greetingMs,
    socketTimeout: timeouts.socketMs,
    dnsTimeout: timeouts.connectMs,
    tls: trustedCa ? { ca: trustedCa } : undefined,
  });
  return {
    async send(mail) {
      await transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        date: mail.date,
        headers: mail.headers,
        attachments: mail.attachments.map((file) => ({ filename: file.filename, contentType: file.contentType, content: file.content })),
      });
    },
    close() {
      transport.close();
    },
  };
}

/** What one attempt's failure means for the mail. */
export type SendVerdict = { kind: 'permanent'; reason: string } | { kind: 'temporary'; reason: string };

/**
 * A 5xx answer is the server refusing the mail for good (an unknown
 * recipient, a refused sender, bad credentials); anything else (4xx, no
 * connection, a timeout, a cut connection, a certificate the server will
 * renew) is worth another try.
 */
export function judgeSendError(err: unknown): SendVerdict {
  const e = err as { responseCode?: unknown; response?: unknown; code?: unknown; message?: unknown } | null;
  const words = typeof e?.response === 'string' && e.response !== '' ? e.response : typeof e?.message === 'string' ? e.message : String(err);
  const code = typeof e?.code === 'string' ? `${e.code}: ` : '';
  const reason = `${code}${words}`.slice(0, 500);
  if (typeof e?.responseCode === 'number' && e.responseCode >= 500 && e.responseCode < 600) return { kind: 'permanent', reason };
  return { kind: 'temporary', reason };
}
