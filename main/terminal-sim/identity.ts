import { randomBytes } from 'node:crypto';
import { generate } from 'selfsigned';

/** What a terminal is set up with: its id, its shared key, and its TLS certificate with the CA that signed it. */
export interface SimulatorIdentity {
  poiId: string;
  keyIdentifier: string;
  keyVersion: number;
  passphrase: string;
  /** PEM of the simulator's own CA: what `POST /terminals` takes as `certificate`. */
  caCertificate: string;
  cert: string;
  key: string;
}

/** A new CA and a server certificate it signed for 127.0.0.1 and localhost, and a random shared key. */
export async function makeIdentity(now = new Date()): Promise<SimulatorIdentity> {
  const notAfterDate = new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  const dates = { notBeforeDate: new Date(now.getTime() - 60_000), notAfterDate };
  const ca = await generate([{ name: 'commonName', value: 'Terminal simulator CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...dates,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: 'Terminal simulator' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...dates,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }, { type: 2, value: 'localhost' }] },
    ],
  });
  return {
    poiId: `SIM-${randomBytes(4).toString('hex')}`,
    keyIdentifier: 'SimulatorKey',
    keyVersion: 1,
    passphrase: randomBytes(18).toString('base64url'),
    caCertificate: ca.cert,
    cert: leaf.cert,
    key: leaf.private,
  };
}
