import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { writeFileDurably } from '../storage/durable-file.js';

/** How the server serves HTTPS: certificate files the operator provides, or one it makes for itself at first start. */
export type TlsSetting = { mode: 'files'; certFile: string; keyFile: string } | { mode: 'self-signed' };

/** A certificate and key ready for `https.createServer`, with the fingerprint staff compare. */
export interface TlsMaterial {
  cert: string;
  key: string;
  /** SHA-256 fingerprint of the certificate, as browsers show it (`AB:CD:…`). */
  fingerprint: string;
}

/** Folder in `DATA_DIR` that keeps the self-made certificate, so tills that pinned it keep trusting it. */
export const TLS_DIR = 'tls';

/**
 * `TLS_CERT` + `TLS_KEY` (PEM file paths) or `TLS=self-signed`; neither, plain
 * HTTP. Anything half-set is an error that names the variables.
 */
export function parseTlsSetting(env: { TLS?: string | undefined; TLS_CERT?: string | undefined; TLS_KEY?: string | undefined }): TlsSetting | undefined {
  const cert = env.TLS_CERT?.trim();
  const key = env.TLS_KEY?.trim();
  const mode = env.TLS?.trim();
  if (cert || key) {
    if (!cert || !key) throw new Error('TLS_CERT and TLS_KEY go together: the paths of the PEM certificate and of its private key');
    if (mode) throw new Error('Set either TLS=self-signed or TLS_CERT and TLS_KEY, not both');
    return { mode: 'files', certFile: cert, keyFile: key };
  }
  if (!mode) return undefined;
  if (mode !== 'self-signed') throw new Error(`TLS must be "self-signed" (or unset, with TLS_CERT and TLS_KEY for your own certificate), not ${JSON.stringify(mode)}`);
  return { mode: 'self-signed' };
}

/** The names and addresses the certificate covers: this computer's name, loopback and every interface address. */
function subjectAltNames(listenHost: string): { type: 2 | 7; value?: string; ip?: string }[] {
  const ips = new Set(['127.0.0.1', '::1']);
  for (const list of Object.values(networkInterfaces())) for (const net of list ?? []) ips.add(net.address.replace(/%.*$/, ''));
  const names = new Set(['localhost', hostname()]);
  if (/^[a-z0-9.-]+$/i.test(listenHost) && !/^[\d.]+$/.test(listenHost)) names.add(listenHost);
  return [...[...names].map((value) => ({ type: 2 as const, value })), ...[...ips].map((ip) => ({ type: 7 as const, ip }))];
}

const fingerprintOf = (cert: string) => new X509Certificate(cert).fingerprint256;

/**
 * The certificate and key to serve: read from the operator's files, or the
 * self-made pair in `DATA_DIR/tls`, made at the first start and reused after.
 */
export async function loadTls(setting: TlsSetting, dataDir: string, listenHost: string, now: Date = new Date()): Promise<TlsMaterial> {
  if (setting.mode === 'files') {
    const cert = readFileSync(setting.certFile, 'utf8');
    const key = readFileSync(setting.keyFile, 'utf8');
    return { cert, key, fingerprint: fingerprintOf(cert) };
  }
  const folder = join(dataDir, TLS_DIR);
  const certFile = join(folder, 'server-cert.pem');
  const keyFile = join(folder, 'server-key.pem');
  if (!existsSync(certFile) || !existsSync(keyFile)) {
    const notAfter = new Date(now);
    notAfter.setFullYear(notAfter.getFullYear() + 10);
    const pems = await generate([{ name: 'commonName', value: `Retail store server ${hostname()}` }], {
      keySize: 2048,
      algorithm: 'sha256',
      notBeforeDate: now,
      notAfterDate: notAfter,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: subjectAltNames(listenHost) },
      ],
    });
    // Only this user may read the folder: it holds the private key.
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    // The key first: a certificate without its key would be reused and fail at every start.
    await writeFileDurably(folder, 'server-key.pem', pems.private);
    await writeFileDurably(folder, 'server-cert.pem', pems.cert);
  }
  const cert = readFileSync(certFile, 'utf8');
  return { cert, key: readFileSync(keyFile, 'utf8'), fingerprint: fingerprintOf(cert) };
}
