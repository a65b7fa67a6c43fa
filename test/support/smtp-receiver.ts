import { generate } from 'selfsigned';
import { simpleParser } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/** A mail as the receiving server parsed it. */
export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  messageId: string;
  headers: Map<string, unknown>;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** What the receiving server does with the next mails; changed at any time by the test. */
export type Behaviour =
  | { kind: 'accept' }
  | { kind: 'refuse-recipient'; code: number; message: string }
  | { kind: 'drop-in-data' };

export interface SmtpReceiver {
  port: number;
  url: string;
  /** Every mail accepted so far, in arrival order. */
  mails: ReceivedMail[];
  behave(behaviour: Behaviour): void;
  /** Resolves once `predicate` holds for the mails received (checked on each arrival). */
  waitFor(predicate: (mails: ReceivedMail[]) => boolean, what: string): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/** A certificate for 127.0.0.1 signed by nobody: trusted only where a test passes it as `trustedCa`. */
export async function localCertificate(): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  return { cert: pems.cert, key: pems.private };
}

/**
 * A real SMTP server (smtp-server) in the test process, reading each mail
 * with mailparser. With `tls`, `secure` serves smtps; otherwise STARTTLS is offered.
 */
export async function startSmtpReceiver(options: { tls?: { cert: string; key: string }; secure?: boolean; port?: number } = {}): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let behaviour: Behaviour = { kind: 'accept' };
  const serverOptions: SMTPServerOptions = {
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    secure: options.secure ?? false,
    ...(options.tls ? { key: options.tls.key, cert: options.tls.cert } : { hideSTARTTLS: true }),
    onRcptTo(_address, _session, callback) {
      if (behaviour.kind === 'refuse-recipient') {
        const refusal = Object.assign(new Error(behaviour.message), { responseCode: behaviour.code });
        callback(refusal);
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      if (behaviour.kind === 'drop-in-data') {
        stream.once('data', () => (session as unknown as { socket?: { destroy(): void } }).socket?.destroy());
        stream.resume();
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          mails.push({
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            messageId: parsed.messageId ?? '',
            headers: parsed.headers,
            attachments: parsed.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content })),
          });
          callback();
          for (const wake of waiters) wake();
        })
        .catch((err: Error) => callback(err));
    },
  };
  const server = new SMTPServer(serverOptions);
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `${options.secure ? 'smtps' : 'smtp'}://127.0.0.1:${port}`,
    mails,
    behave(next) {
      behaviour = next;
    },
    waitFor(predicate, what) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (predicate(mails)) {
            waiters.delete(check);
            clearTimeout(limit);
            resolve(mails);
          }
        };
        const limit = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`waited in vain for ${what}; received: ${JSON.stringify(mails.map((m) => m.subject))}`));
        }, 20_000);
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
