import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** File in `DATA_DIR` holding the key that seals secrets kept in the database. */
export const SECRET_KEY_FILE = 'secret-box.key';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

/**
 * Seals secrets (a terminal's passphrase) with AES-256-GCM under a random key
 * kept beside the database, not in it: a copy of the database file alone, as
 * sent with a support request, does not give the secrets away.
 */
export function openSecretBox(dataDir: string): SecretBox {
  const file = join(dataDir, SECRET_KEY_FILE);
  if (!existsSync(file)) {
    try {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      // Another process of this data folder (the CLI, the server) made it first.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = Buffer.from(readFileSync(file, 'utf8'), 'base64');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    open(sealed) {
      const [, iv, tag, body] = sealed.split('.') as [string, string, string, string];
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}
