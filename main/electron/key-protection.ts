import type { SafeStorage } from 'electron';
import type { KeyWrapper } from '../security/secret-box.js';

export type SafeStorageModule = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>;

/**
 * Backends that only look like encryption: Chromium's `basic_text` on a Linux
 * desktop without a keyring encrypts with a key built into every Chromium,
 * so anyone with the file can read the key.
 */
const WEAK_BACKENDS = new Set(['basic_text', 'unknown']);

export type KeyProtection =
  | { available: true; encrypt(key: string): string; decrypt(encrypted: string): string }
  | { available: false; reason: string; decrypt(encrypted: string): string };

/** What the system offers to keep a key: Windows DPAPI, the Linux desktop's keyring (libsecret, KWallet), or nothing. */
export function keyProtection(safeStorage: SafeStorageModule, platform: NodeJS.Platform): KeyProtection {
  const decrypt = (encrypted: string) => safeStorage.decryptString(Buffer.from(encrypted, 'base64'));
  if (!safeStorage.isEncryptionAvailable()) return { available: false, reason: 'the system offers no encryption to this app', decrypt };
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend();
    if (WEAK_BACKENDS.has(backend)) return { available: false, reason: `no keyring is running on this desktop (Electron safeStorage backend "${backend}")`, decrypt };
  }
  return { available: true, encrypt: (key) => safeStorage.encryptString(key).toString('base64'), decrypt };
}

/**
 * The key file that seals stored secrets (security/secret-box.ts), kept as the
 * system protects it when it can; without a keyring it stays a 0600 file, as headless.
 */
export function secretKeyWrapper(protection: KeyProtection): KeyWrapper | undefined {
  return protection.available ? { wrap: protection.encrypt, unwrap: protection.decrypt } : undefined;
}
