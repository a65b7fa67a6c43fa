import { request } from 'node:https';
import type { PeerCertificate } from 'node:tls';
import type { ApiResponse } from './api.js';

/**
 * A request over HTTPS that trusts exactly one certificate, as a till that
 * pinned the store server's fingerprint does: any other certificate fails.
 */
export function pinnedRequest(
  url: string,
  options: { method?: string; key?: string; body?: unknown; cert: string; fingerprint: string },
): Promise<ApiResponse> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        // A fresh connection each time: a reused one would skip the certificate check.
        agent: false,
        ca: options.cert,
        // The certificate is trusted for its fingerprint, whatever name or address the till used.
        checkServerIdentity: (_host: string, peer: PeerCertificate) =>
          peer.fingerprint256 === options.fingerprint ? undefined : new Error(`certificate ${peer.fingerprint256} is not the pinned one`),
        headers: {
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') headers.set(name, value);
            // Set-Cookie comes as a list, one cookie each.
            else for (const each of value ?? []) headers.append(name, each);
          }
          resolve({ status: res.statusCode ?? 0, body: text && (res.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text, headers });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
