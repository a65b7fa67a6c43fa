import { createRequire } from 'node:module';
import type NexoCryptoClass from '@adyen/api-library/lib/src/security/nexoCrypto.js';
import type { MessageHeader } from '@adyen/api-library/lib/src/typings/terminal/messageHeader.js';
import type { SaleToPOISecuredMessage } from '@adyen/api-library/lib/src/typings/terminal/saleToPOISecuredMessage.js';

// The library's own message security (AES-256-CBC, HMAC-SHA256, keys derived from the passphrase),
// required from its module alone: the package's index loads every Adyen API (half a second).
const NexoCrypto = (createRequire(import.meta.url)('@adyen/api-library/lib/src/security/nexoCrypto.js') as { default: typeof NexoCryptoClass.default }).default;

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
