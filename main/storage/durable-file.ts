import { open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** How a file being written ends; a folder's leftovers of a crash are the names that end so. */
export const TEMP_SUFFIX = '.tmp';

/** Makes a rename or an unlink durable where a directory can be synced (not on Windows, where NTFS journals it). */
export async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Windows cannot open a directory.
  }
}

let temps = 0;

/**
 * Writes `name` in `dir` so that it is either absent or its old content, or the
 * whole new content, also after a power cut: temp file, fsync, rename, and a
 * sync of the folder: an image must survive as well as the product row naming
 * it (committed with `synchronous = FULL`), a paid sale as well as a stored one.
 */
export async function writeFileDurably(dir: string, name: string, data: string | Uint8Array): Promise<void> {
  const temp = join(dir, `.${name}.${process.pid}-${++temps}${TEMP_SUFFIX}`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, join(dir, name));
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncDirectory(dir);
}
