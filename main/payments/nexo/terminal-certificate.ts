import type { PeerCertificate } from 'node:tls';

/** Adyen names a terminal's TLS certificate after its POIID, in its test or its live environment. */
const ENVIRONMENTS = ['test', 'live'] as const;

/** The subject names a certificate of the terminal with this POIID may carry. */
export const terminalCertificateNames = (poiId: string): string[] => ENVIRONMENTS.map((env) => `${poiId}.${env}.terminal.adyen.com`);

/** The terminal's TLS certificate is not the registered terminal's: nothing was sent to it. */
export class TerminalCertificateRefused extends Error {}

/**
 * The TLS host check for a terminal, in place of Node's check of the address:
 * a terminal's certificate names the terminal, never the IP address the store's
 * DHCP gave it. Called only once the chain to the registered CA is verified.
 * Stricter than the check of Adyen's own library, which takes any terminal's
 * name: here it must be the registered POIID's.
 */
export function checkTerminalIdentity(poiId: string): (host: string, cert: PeerCertificate) => Error | undefined {
  const expected = terminalCertificateNames(poiId);
  return (_host, cert) => {
    const cn = cert.subject?.CN as string | string[] | undefined;
    if (typeof cn === 'string' && expected.some((name) => name.toLowerCase() === cn.toLowerCase())) return undefined;
    const named = typeof cn === 'string' ? `is for ${JSON.stringify(cn)}` : 'names no single terminal';
    return new TerminalCertificateRefused(
      `its TLS certificate ${named}, not for the registered POIID ${JSON.stringify(poiId)} (${expected.join(' or ')}): check the POIID registered with POST /terminals against the one the terminal shows`,
    );
  };
}

/** OpenSSL's codes for a certificate that does not chain to the trusted CA, or is not valid now. */
const CHAIN_CODES: Record<string, string> = {
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is not signed by the CA registered with this terminal',
  UNABLE_TO_GET_ISSUER_CERT: 'is not signed by the CA registered with this terminal',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is not signed by the CA registered with this terminal',
  SELF_SIGNED_CERT_IN_CHAIN: 'is not signed by the CA registered with this terminal',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed, not signed by the CA registered with this terminal',
  CERT_SIGNATURE_FAILURE: 'is not signed by the CA registered with this terminal',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet (check the clocks of this PC and of the terminal)',
};

/** A TLS verification failure said so staff know what to fix; undefined for any other error. */
export function certificateProblem(err: unknown): string | undefined {
  if (err instanceof TerminalCertificateRefused) return err.message;
  const code = (err as { code?: unknown } | null)?.code;
  const chain = typeof code === 'string' ? CHAIN_CODES[code] : undefined;
  if (chain) return `its TLS certificate ${chain} (${String(code)}): register the terminal with the CA certificate of its environment (docs/payments.md, "A real terminal")`;
  return undefined;
}
