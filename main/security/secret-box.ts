import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/**
 * File in `DATA_DIR` holding the key that seals stored secrets (the upstream
 * write key, a terminal's passphrase). Kept apart from retail.sqlite, so a copy
 * of the database alone (a backup sent for support, a stolen file) holds no
 * secret it can open; mode 0600 like everything in the folder.
 */
export const SECRET_KEY_FILE = 'secret.key';

/** Marks a sealed value: AES-256-GCM, then base64 of nonce, tag and cipher text. */
const SEALED_PREFIX = 'sealed:v1:';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Protection of the key file by the system (Electron `safeStorage`: Windows
 * DPAPI, the desktop's keyring), so the file alone does not open anything.
 */
export interface KeyWrapper {
  wrap(key: string): string;
  unwrap(wrapped: string): string;
}

/** Seals secrets before they are stored and opens them when they are used. */
export interface SecretBox {
  seal(text: string): string;
  /** The secret in a sealed value; a value stored before sealing existed comes back as it is. */
  open(stored: string): string;
}

/** The key file cannot be used here; the message says what to do. */
export class SecretKeyUnavailable extends Error {}

const KeyFileSchema = z.strictObject({
  format: z.literal(1),
  protection: z.enum(['none', 'system']),
  key: z.string().min(1),
});
type KeyFile = z.infer<typeof KeyFileSchema>;

export const isSealed = (value: string): boolean => value.startsWith(SEALED_PREFIX);

/**
 * The secret box of a data folder. Its key is made on first use; with a
 * `wrapper` (the desktop app) the file holds the key only as the system
 * protects it, and a headless file met by the app is protected from then on.
 */
export function openSecretBox(dataDir: string, wrapper?: KeyWrapper): SecretBox {
  const file = join(dataDir, SECRET_KEY_FILE);
  let key: Buffer | undefined;
  const keyOf = (): Buffer => (key ??= loadOrCreateKey(file, wrapper));
  return {
    seal(text) {
      const nonce = randomBytes(NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', keyOf(), nonce);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64');
    },
    open(stored) {
      if (!isSealed(stored)) return stored;
      const bytes = Buffer.from(stored.slice(SEALED_PREFIX.length), 'base64');
      const decipher = createDecipheriv('aes-256-gcm', keyOf(), bytes.subarray(0, NONCE_BYTES));
      decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretKeyUnavailable(`A stored secret does not open with ${file}: the database comes from another data folder or the key file was replaced. Set the secret again (for sync: \`sync configure\`).`);
      }
    },
  };
}

function loadOrCreateKey(file: string, wrapper: KeyWrapper | undefined): Buffer {
  const existing = readKeyFile(file);
  if (existing === undefined) {
    const fresh = randomBytes(32);
    // Two processes (the server and a CLI command) may both start one: the first file written wins.
    if (writeKeyFile(file, describeKey(fresh, wrapper), 'wx')) return fresh;
    return loadOrCreateKey(file, wrapper);
  }
  if (existing.protection === 'none') {
    const found = Buffer.from(existing.key, 'base64');
    if (wrapper) writeKeyFile(file, describeKey(found, wrapper), 'w');
    return found;
  }
  if (!wrapper) {
    throw new SecretKeyUnavailable(
      `${file} is protected by the desktop app's system key store: run this command through the app (store-server --cli …) as the user who runs it`,
    );
  }
  try {
    return Buffer.from(wrapper.unwrap(existing.key), 'base64');
  } catch {
    throw new SecretKeyUnavailable(`${file} cannot be opened by this user on this PC (it was protected by another one): set the stored secrets again (for sync: \`sync configure\`)`);
  }
}

const describeKey = (key: Buffer, wrapper: KeyWrapper | undefined): KeyFile =>
  wrapper ? { format: 1, protection: 'system', key: wrapper.wrap(key.toString('base64')) } : { format: 1, protection: 'none', key: key.toString('base64') };

function readKeyFile(file: string): KeyFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const parsed = KeyFileSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new SecretKeyUnavailable(`${file} is not a key file this version understands; restore it from the backup of the data folder`);
  return parsed.data;
}

/**
 * Writes the key file (0600) whole or not at all: a temporary file, flushed,
 * then linked (`wx`: false when another process got there first) or renamed.
 */
function writeKeyFile(file: string, content: KeyFile, flag: 'wx' | 'w'): boolean {
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, JSON.stringify(content) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    if (flag === 'w') {
      renameSync(temp, file);
      return true;
    }
    linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(temp, { force: true });
  }
}
