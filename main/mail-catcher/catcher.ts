import { simpleParser } from 'mailparser';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the catcher prints it: one line of JSON each. */
export interface CaughtMail {
  receivedAt: string;
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  headers: Record<string, string>;
  text: string;
  attachments: string[];
}

/** How many mails `GET /mails` answers: the newest ones. */
export const KEPT_MAILS = 200;

export interface MailCatcher {
  smtpPort: number;
  httpPort: number;
  close(): Promise<void>;
}

/** Header lines worth reading in a caught mail: the ones this product sets beyond the usual. */
const SHOWN_HEADERS = /^x-/i;

/**
 * A local SMTP server for a shop without one, and for tests: it accepts every
 * mail (no authentication, no TLS), hands each to `onMail`, and answers the
 * newest `KEPT_MAILS` on `GET http://127.0.0.1:<port + 1>/mails`.
 */
export async function startMailCatcher(port: number, onMail: (mail: CaughtMail) => void): Promise<MailCatcher> {
  const kept: CaughtMail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disableReverseLookup: true,
    hideSTARTTLS: true,
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of parsed.headers) if (SHOWN_HEADERS.test(name)) headers[name] = String(value);
          const mail: CaughtMail = {
            receivedAt: new Date().toISOString(),
            messageId: parsed.messageId ?? '',
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            headers,
            text: parsed.text ?? '',
            attachments: parsed.attachments.map((a) => a.filename ?? '(unnamed)'),
          };
          kept.push(mail);
          if (kept.length > KEPT_MAILS) kept.splice(0, kept.length - KEPT_MAILS);
          onMail(mail);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  smtp.on('error', (err) => console.error(`mail catcher: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(port, '127.0.0.1', () => resolve());
  });
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  const http: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/mails') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(kept));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'Only GET /mails is here' }));
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(smtpPort + 1, '127.0.0.1', () => resolve());
  });
  return {
    smtpPort,
    httpPort: smtpPort + 1,
    close: async () => {
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}
