import { X509Certificate } from 'node:crypto';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/**
 * Why a terminal's `certificate` (the PEM of the CA its TLS certificate
 * chains to, possibly several) cannot be used, or undefined. Found at
 * registration, a pasted fragment or a key file is named at once instead of
 * failing every payment later.
 */
export function terminalCertificateProblem(pem: string, now: Date): string | undefined {
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return 'certificate: no complete PEM block (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----) was found; paste the whole file of the CA';
  for (const [index, block] of blocks.entries()) {
    let parsed: X509Certificate;
    try {
      parsed = new X509Certificate(block);
    } catch {
      return `certificate: block ${index + 1} of ${blocks.length} is not a readable X.509 certificate; paste the CA's PEM file unchanged (a copy cut short or retyped does not parse)`;
    }
    if (Date.parse(parsed.validTo) < now.getTime()) return `certificate: the certificate of ${JSON.stringify(parsed.subject.replace(/\n/g, ', '))} expired on ${parsed.validTo}; ask for the current CA certificate`;
  }
  return undefined;
}
