import { request } from 'node:https';
import type { TerminalEndpoint } from '../terminal-protocol.js';
import { TerminalAnswerLost, TerminalNotReached } from '../terminal-protocol.js';
import { openMessage, sealMessage, type NexoHeader, type SecuredMessage } from './nexo-crypto.js';
import { certificateProblem, checkTerminalIdentity } from './terminal-certificate.js';

/** Path of the Terminal API on a terminal in local mode. */
export const NEXO_PATH = '/nexo';

export interface Exchange {
  header: NexoHeader;
  /** Name of the request body, e.g. `PaymentRequest`. */
  body: string;
  content: unknown;
  timeoutMs: number;
  /** Called once the request is written to the terminal. */
  onSent?: (() => void) | undefined;
}

/**
 * Sends one secured nexo request over HTTPS and returns the terminal's
 * decrypted message (null for an empty answer, as an abort gets). The TLS
 * certificate must chain to the CA registered with this terminal and name its
 * POIID (`<POIID>.test.terminal.adyen.com` or `.live.`), as Adyen issues a
 * terminal's certificate; its address is not in it. A failure before the connection is up throws `TerminalNotReached`
 * (the terminal heard nothing); any later one `TerminalAnswerLost`.
 */
export function exchange(endpoint: TerminalEndpoint, ex: Exchange): Promise<Record<string, any> | null> {
  const key = { keyIdentifier: endpoint.keyIdentifier, keyVersion: endpoint.keyVersion, passphrase: endpoint.passphrase };
  const secured = sealMessage(ex.header, { SaleToPOIRequest: { MessageHeader: ex.header, [ex.body]: ex.content } }, key);
  const payload = JSON.stringify({ SaleToPOIRequest: secured });
  return new Promise((resolve, reject) => {
    let connected = false;
    const fail = (err: unknown) => {
      const untrusted = certificateProblem(err);
      if (untrusted && !connected) return reject(new TerminalNotReached(`the terminal at ${endpoint.host}:${endpoint.port} was not trusted: ${untrusted}`));
      const why = err instanceof Error ? err.message : String(err);
      reject(connected ? new TerminalAnswerLost(`no answer from the terminal: ${why}`) : new TerminalNotReached(`the terminal at ${endpoint.host}:${endpoint.port} could not be reached: ${why}`));
    };
    const req = request(
      {
        host: endpoint.host,
        port: endpoint.port,
        path: NEXO_PATH,
        method: 'POST',
        ca: endpoint.certificate,
        checkServerIdentity: checkTerminalIdentity(endpoint.poiId),
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
            if (text.trim() === '') return resolve(null);
            const answer = JSON.parse(text) as { SaleToPOIResponse?: SecuredMessage };
            if (!answer.SaleToPOIResponse?.NexoBlob) throw new Error('the answer is not a secured nexo message');
            const message = openMessage(answer.SaleToPOIResponse, key) as { SaleToPOIResponse?: Record<string, any> };
            resolve(message.SaleToPOIResponse ?? null);
          } catch (err) {
            fail(err);
          }
        });
      },
    );
    req.setTimeout(ex.timeoutMs, () => req.destroy(new Error(`no answer within ${Math.round(ex.timeoutMs / 1000)} s`)));
    req.on('socket', (socket) => socket.once('secureConnect', () => (connected = true)));
    req.on('finish', () => {
      if (connected) ex.onSent?.();
    });
    req.on('error', fail);
    req.end(payload);
  });
}
