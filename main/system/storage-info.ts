import { stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SystemInfo } from '../../shared/api/system.js';

const sizeOf = async (file: string) => (await stat(file).catch(() => undefined))?.size ?? 0;

/** Version, database size (file and write-ahead log) and the space left on the data folder's disk. */
export async function readSystemInfo(databaseFile: string, version: string): Promise<Omit<SystemInfo, 'tlsFingerprint'>> {
  const [main, wal, disk] = await Promise.all([sizeOf(databaseFile), sizeOf(`${databaseFile}-wal`), statfs(dirname(databaseFile))]);
  return { version, databaseBytes: main + wal, diskFreeBytes: disk.bavail * disk.bsize, diskTotalBytes: disk.blocks * disk.bsize };
}
