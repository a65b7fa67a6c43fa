import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CREDENTIALS_FILE } from '../bootstrap.js';
import { IMAGES_DIR } from '../images/store.js';
import { BadRequest } from '../services/errors.js';
import { SECRET_KEY_FILE } from '../security/secret-box.js';
import { makePrivateFolder, tightenDataFolder } from '../security/private-files.js';
import { DATABASE_FILE } from '../storage/database.js';
import { VERSION } from '../version.js';
import { BACKUP_FORMAT, MANIFEST_FILE, copyImages, type BackupManifest } from './backup-folder.js';

/** All pages in one step: a copy made in steps starts over whenever the running server commits in between. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the data folder into a new backup folder while the server keeps
 * running: the database through SQLite's online backup (a consistent snapshot
 * of every committed write), then the image store and the credentials file.
 */
export async function backupDataFolder(dataDir: string, target: string): Promise<BackupManifest & { folder: string }> {
  const folder = resolve(target);
  if (existsSync(folder) && readdirSync(folder).length > 0) {
    throw new BadRequest(`${folder} already exists and is not empty; name a new folder for the backup`);
  }
  const databaseFile = join(dataDir, DATABASE_FILE);
  if (!existsSync(databaseFile)) throw new BadRequest(`${dataDir} holds no database (${DATABASE_FILE}) to back up`);
  makePrivateFolder(folder);

  const source = new Database(databaseFile, { readonly: true, fileMustExist: true });
  const createdAt = new Date().toISOString();
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(join(folder, DATABASE_FILE), { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const images = copyImages(join(dataDir, IMAGES_DIR), join(folder, IMAGES_DIR));
  // The key file goes with the database: without it a restored upstream key cannot be opened.
  for (const file of [CREDENTIALS_FILE, SECRET_KEY_FILE]) if (existsSync(join(dataDir, file))) copyFileSync(join(dataDir, file), join(folder, file));
  const manifest: BackupManifest = { format: BACKUP_FORMAT, createdAt, version: VERSION, images };
  writeFileSync(join(folder, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  // A backup holds what the data folder holds: SQLite and copyFile create files with the process's umask.
  tightenDataFolder(folder);
  return { folder, ...manifest };
}
