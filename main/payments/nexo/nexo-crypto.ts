import { createRequire } from 'node:module';
import type NexoCryptoClass from '@adyen/api-library/lib/src/security/nexoCrypto.js';
import type { MessageHeader } from '@adyen/api-library/lib/src/typings/terminal/messageHeader.js';
import type { SaleToPOISecuredMessage } from '@adyen/api-library/lib/src/typings/terminal/saleToPOISecuredMessage.js';

// The library's own message security (AES-256-CBC, HMAC-SHA256, keys derived from the passphrase),
// required from its module alone: the package's index loads every Adyen API (half a second).
const require = createRequire(import.meta.url);
const NexoCrypto = (require('@adyen/api-library/lib/src/security/nexoCrypto.js') as { default: typeof NexoCryptoClass.default }).default;

/** Passphrases whose key material is kept; a store has a handful of terminals. */
const KEPT_KEYS = 16;

/**
 * The library derives the key material anew for every message: PBKDF2 over
 * 640 bytes, about 90 ms of CPU each time, twice on the way from a terminal's
 * approval to the stored sale. The material depends on the passphrase alone,
 * so its derivation is kept per passphrase.
 */
function keepDerivedKeys(): void {
  const generator = (require('@adyen/api-library/lib/src/security/nexoDerivedKeyGenerator.js') as { default: { deriveKeyMaterial(passphrase: string): unknown } }).default;
  const derive = generator.deriveKeyMaterial.bind(generator);
  const kept = new Map<string, unknown>();
  generator.deriveKeyMaterial = (passphrase) => {
    let material = kept.get(passphrase);
    if (material === undefined) {
      if (kept.size >= KEPT_KEYS) kept.clear();
      material = derive(passphrase);
      kept.set(passphrase, material);
    }
    return material;
  };
}
keepDerivedKeys();

/** The shared key of a terminal, as set up on it. */
export interface NexoKey {
  keyIdentifier: string;
  keyVersion: number;
  passphrase: string;
}

export type NexoHeader = Record<string, string>;

/** A secured nexo message: the header in clear, the message itself encrypted and signed. */
export interface SecuredMessage {
  MessageHeader: NexoHeader;
  NexoBlob: string;
  SecurityTrailer: { AdyenCryptoVersion: number; Hmac: string; KeyIdentifier: string; KeyVersion: number; Nonce: string };
}

const securityKey = (key: NexoKey) => ({ AdyenCryptoVersion: 1, KeyIdentifier: key.keyIdentifier, KeyVersion: key.keyVersion, Passphrase: key.passphrase });

export function sealMessage(header: NexoHeader, message: unknown, key: NexoKey): SecuredMessage {
  return NexoCrypto.encrypt(header as unknown as MessageHeader, JSON.stringify(message), securityKey(key)) as unknown as SecuredMessage;
}

/** The message inside; throws when its signature does not match the key (another key, or altered on the way). */
export function openMessage(secured: SecuredMessage, key: NexoKey): unknown {
  return JSON.parse(new NexoCrypto().decrypt(secured as unknown as SaleToPOISecuredMessage, securityKey(key)));
}
