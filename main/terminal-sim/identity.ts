import { randomBytes, randomInt } from 'node:crypto';
import { generate } from 'selfsigned';
import { terminalCertificateNames } from '../payments/nexo/terminal-certificate.js';

/** A POIID of a terminal's form, `<model>-<serial>`, as Adyen prints it on the terminal. */
export const POI_ID = /^[A-Za-z0-9]+-[A-Za-z0-9]+$/;

/** The model the simulator presents itself as (Adyen's S1E2L), with a serial number of its own. */
const newPoiId = () => `S1E2L-${randomInt(100_000_000, 1_000_000_000)}`;

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

/**
 * A new CA and a server certificate it signed as Adyen signs a terminal's in
 * its test environment (subject CN `<POIID>.test.terminal.adyen.com`, no IP
 * address: the server must find the terminal by its name, wherever the
 * store's network puts it), and a random shared key.
 */
export async function makeIdentity(options: { poiId?: string | undefined; now?: Date } = {}): Promise<SimulatorIdentity> {
  const now = options.now ?? new Date();
  const poiId = options.poiId ?? newPoiId();
  const [testName] = terminalCertificateNames(poiId) as [string];
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
  const leaf = await generate([{ name: 'commonName', value: testName }], {
    keyType: 'ec',
    algorithm: 'sha256',
    ...dates,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: testName }] },
    ],
  });
  return {
    poiId,
    keyIdentifier: 'SimulatorKey',
    keyVersion: 1,
    passphrase: randomBytes(18).toString('base64url'),
    caCertificate: ca.cert,
    cert: leaf.cert,
    key: leaf.private,
  };
}
