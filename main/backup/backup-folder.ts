import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isStoredImageName } from '../rules/image-urls.js';

/** What a backup folder holds besides the database and the images: its description. */
export const MANIFEST_FILE = 'backup.json';
export const BACKUP_FORMAT = 1;

export interface BackupManifest {
  format: number;
  /** When the database was copied (ISO 8601, UTC). */
  createdAt: string;
  /** Version of the server that wrote the backup. */
  version: string;
  images: number;
}

/** The stored images in a folder (temporary files of uploads in progress left out). */
export function imageNamesIn(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter(isStoredImageName);
}

/** Copies the stored images of one folder into another; returns how many. */
export function copyImages(from: string, to: string): number {
  mkdirSync(to, { recursive: true });
  const names = imageNamesIn(from);
  for (const name of names) {
    try {
      copyFileSync(join(from, name), join(to, name));
    } catch (err) {
      // Replaced or removed since the database was copied: the copy does not name it any more.
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
  return imageNamesIn(to).length;
}
