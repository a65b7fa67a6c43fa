import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** File in `DATA_DIR` that ties the database's installation id to this PC and this very database file. */
export const MARKER_FILE = 'installation.json';

/** Where the database file lives: the PC's name and the file's device and inode (file index on Windows). */
export interface FolderIdentity {
  host: string;
  device: string;
  inode: string;
}

export interface FolderMarker extends FolderIdentity {
  installation: string;
  /** Highest outbox sequence when the marker was written; the database only goes below it when an older copy replaced it. */
  outboxSeq: number;
}

/**
 * A copy of the file (another folder, another disk, a restore of a backup,
 * a cloned template folder) gets a new inode; a move within one disk keeps
 * it. The host name tells apart PCs cloned from one disk image.
 */
export function folderIdentity(databaseFile: string, host: string = hostname()): FolderIdentity {
  const stats = statSync(databaseFile, { bigint: true });
  return { host, device: String(stats.dev), inode: String(stats.ino) };
}

export function readMarker(dataDir: string): FolderMarker | undefined {
  try {
    const marker = JSON.parse(readFileSync(join(dataDir, MARKER_FILE), 'utf8')) as FolderMarker;
    return typeof marker.installation === 'string' && typeof marker.inode === 'string' ? marker : undefined;
  } catch {
    return undefined;
  }
}

/** Replaces the marker in one step (temporary file and rename), so a crash leaves the old one or the new one. */
export function writeMarker(dataDir: string, marker: FolderMarker): void {
  const temp = join(dataDir, `.${MARKER_FILE}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify(marker, null, 2) + '\n');
  renameSync(temp, join(dataDir, MARKER_FILE));
}

export const sameIdentity = (a: FolderIdentity, b: FolderIdentity): boolean => a.host === b.host && a.device === b.device && a.inode === b.inode;
