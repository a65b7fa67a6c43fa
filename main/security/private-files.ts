import { chmodSync, closeSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder holds the upstream write key's seal, identity checks (birth
 * dates, document text) and every sale: no other account on the PC may read it.
 */
export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * What the process creates is for its own account only. Set first thing by
 * every entry (server, CLI, desktop app), so files written by any module, and
 * those SQLite and the backup create, start private.
 */
export const PRIVATE_UMASK = 0o077;

/** Creates `dir` (and its parents) readable by the owner only, and makes an existing one so. */
export function makePrivateFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  chmodSync(dir, PRIVATE_FOLDER_MODE);
}

/** Creates `file` empty if it is missing, and leaves it readable by the owner only. */
export function makePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * Tightens a data folder an older version left open (0755, files 0644): the
 * folder and its folders 0700, its files 0600. The folder's own mode already
 * keeps others out of everything below it, so deeper files (images) are left.
 */
export function tightenDataFolder(dataDir: string): void {
  makePrivateFolder(dataDir);
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isDirectory()) chmodSync(join(dataDir, entry.name), PRIVATE_FOLDER_MODE);
    else if (entry.isFile()) chmodSync(join(dataDir, entry.name), PRIVATE_FILE_MODE);
  }
}
