import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
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

const STICKY = 0o1000;

/**
 * Creates `dir` (and its parents) readable by the owner only, and makes an
 * existing one so. A shared folder named as the data folder (`DATA_DIR=/tmp`:
 * sticky, or another account's) keeps its mode; the files in it are still 0600.
 * Returns whether the folder is this account's own.
 */
export function makePrivateFolder(dir: string): boolean {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  const { mode, uid } = statSync(dir);
  if ((mode & STICKY) !== 0 || (process.getuid !== undefined && uid !== process.getuid())) return false;
  chmodSync(dir, PRIVATE_FOLDER_MODE);
  return true;
}

/** Makes `file` readable by the owner only, when it exists. */
export function keepPrivateIfPresent(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Leaves `file` readable by the owner only, creating it empty when it is missing.
 * An existing file is never opened: closing any descriptor of a SQLite file
 * drops every POSIX lock this process holds on it, also those of another
 * connection (the server's, when a command runs in its process).
 */
export function makePrivateFile(file: string): void {
  try {
    chmodSync(file, PRIVATE_FILE_MODE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  }
}

/**
 * Tightens a data folder an older version left open (0755, files 0644): the
 * folder and its folders 0700, its files 0600. The folder's own mode already
 * keeps others out of everything below it, so deeper files (images) are left.
 */
export function tightenDataFolder(dataDir: string): void {
  if (!makePrivateFolder(dataDir)) return;
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (entry.isDirectory()) chmodSync(join(dataDir, entry.name), PRIVATE_FOLDER_MODE);
    else if (entry.isFile()) chmodSync(join(dataDir, entry.name), PRIVATE_FILE_MODE);
  }
}
