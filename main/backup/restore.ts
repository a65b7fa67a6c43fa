import Database from 'better-sqlite3';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { CREDENTIALS_FILE } from '../bootstrap.js';
import { IMAGES_DIR } from '../images/store.js';
import { makePrivateFolder, tightenDataFolder } from '../security/private-files.js';
import { SECRET_KEY_FILE } from '../security/secret-box.js';
import { BadRequest, Conflict } from '../services/errors.js';
import { dataFolderHolder, DataFolderInUse, lockDataFolder } from '../storage/data-folder-lock.js';
import { renewAfterRestore } from '../installation/check-installation.js';
import { systemClock } from '../services/clock.js';
import { DATABASE_FILE, openDatabase } from '../storage/database.js';
import { dropUnfinishedSettlements } from '../storage/settlements.js';
import { keepSettledState, readSettledState } from '../settlements/carry-over.js';
import { BACKUP_FORMAT, MANIFEST_FILE, copyImages, type BackupManifest } from './backup-folder.js';

function readManifest(folder: string): BackupManifest {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(join(folder, MANIFEST_FILE), 'utf8')) as BackupManifest;
  } catch {
    throw new BadRequest(`${folder} is not a backup: it has no readable ${MANIFEST_FILE}`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BadRequest(`${folder} is a backup of format ${manifest.format}; this version reads format ${BACKUP_FORMAT}`);
  return manifest;
}

function checkDatabase(file: string): void {
  if (!existsSync(file)) throw new BadRequest(`The backup has no database (${DATABASE_FILE})`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const result = db.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BadRequest(`The backup's database is damaged (${String(result)}); nothing was restored`);
  } finally {
    db.close();
  }
}

/**
 * Replaces the data folder's database, images and credentials with a backup.
 * Refused while a server (or another restore) holds the folder, and over an
 * existing database unless `replace` is set. The restored installation gets a
 * new id: the backup hands out outbox sequence numbers the original may
 * already have sent, and its new entries must not reuse their keys. What the
 * replaced database had settled stays settled (settlements/carry-over.ts).
 */
export function restoreDataFolder(dataDir: string, source: string, options: { replace: boolean }): BackupManifest & { folder: string; installation: string } {
  const folder = resolve(source);
  const manifest = readManifest(folder);
  const holder = dataFolderHolder(dataDir);
  if (holder !== undefined) throw new Conflict(new DataFolderInUse(dataDir, holder).message);
  const databaseFile = join(dataDir, DATABASE_FILE);
  if (existsSync(databaseFile) && !options.replace) {
    throw new BadRequest(`${dataDir} already holds a database; add --replace to overwrite it with the backup`);
  }
  checkDatabase(join(folder, DATABASE_FILE));

  makePrivateFolder(dataDir);
  const unlock = lockDataFolder(dataDir, 'restore');
  try {
    const settled = readSettledState(databaseFile);
    for (const suffix of ['', '-wal', '-shm']) rmSync(databaseFile + suffix, { force: true });
    copyFileSync(join(folder, DATABASE_FILE), databaseFile);
    rmSync(join(dataDir, IMAGES_DIR), { recursive: true, force: true });
    copyImages(join(folder, IMAGES_DIR), join(dataDir, IMAGES_DIR));
    for (const file of [CREDENTIALS_FILE, SECRET_KEY_FILE]) if (existsSync(join(folder, file))) copyFileSync(join(folder, file), join(dataDir, file));
    tightenDataFolder(dataDir);
    const db = openDatabase(databaseFile);
    try {
      // First: a backup taken while a settlement was written holds its first parts, which must not meet the whole one kept from the replaced database.
      dropUnfinishedSettlements(db);
      keepSettledState(db, settled);
      return { folder, ...manifest, installation: renewAfterRestore(dataDir, db, systemClock).id };
    } finally {
      db.close();
    }
  } finally {
    unlock();
  }
}
