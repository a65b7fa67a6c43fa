import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { StaffPinHash } from '../../shared/kiosk-config.js';
import { readKioskFile } from './kiosk-file.js';

/** A staff PIN: digits only (typed on the kiosk's keyboard or number pad), 4 to 12 of them. */
export const STAFF_PIN_PATTERN = /^\d{4,12}$/;

/** scrypt's cost: about 50 ms per try on a store PC, so guessing offline is slow and leaving kiosk mode is not. */
const COST = { N: 16384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;

export function hashStaffPin(pin: string): StaffPinHash {
  if (!STAFF_PIN_PATTERN.test(pin)) throw new Error('The staff PIN must be 4 to 12 digits.');
  const salt = randomBytes(16);
  const hash = scryptSync(pin, salt, KEY_LENGTH, COST);
  return { scheme: 'scrypt', ...COST, salt: salt.toString('base64'), hash: hash.toString('base64') };
}

export function verifyStaffPin(pin: string, stored: StaffPinHash): boolean {
  const expected = Buffer.from(stored.hash, 'base64');
  const actual = scryptSync(pin, Buffer.from(stored.salt, 'base64'), expected.length, { N: stored.N, r: stored.r, p: stored.p, maxmem: 256 * stored.N * stored.r });
  return timingSafeEqual(actual, expected);
}

/** The PIN's hash from kiosk.json, or undefined when none is set or the file cannot be read; the rest of the file need not be valid. */
export function readStaffPin(dataDir: string): StaffPinHash | undefined {
  try {
    const parsed = StaffPinHash.safeParse(readKioskFile(dataDir)?.staffPin);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
