import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../rules/ids.js';
import { isStoredImageName } from '../rules/image-urls.js';
import { TEMP_SUFFIX, writeFileDurably } from '../storage/durable-file.js';

/** Folder of the image store inside `DATA_DIR`. */
export const IMAGES_DIR = 'images';

/**
 * The image files on disk. Names are chosen here (20 random letters and digits
 * plus the type's extension), never taken from a request, and every path is
 * built from a name that passed `isStoredImageName`.
 */
export interface ImageStore {
  readonly dir: string;
  /** Writes the bytes under a new name, atomically: the name never shows a partial file. */
  write(bytes: Uint8Array, extension: string): Promise<string>;
  /** Deletes a stored file; true when it is gone (also when it already was). */
  remove(name: string): boolean;
  /** Absolute path of a stored file, or undefined for a name the store never gives. */
  pathOf(name: string): string | undefined;
  /** Names of the stored files. */
  list(): string[];
}

/**
 * Opens (creating if needed) the image folder. Temporary files left by a
 * crash in the middle of a write are removed here, before any write starts.
 */
export function openImageStore(dir: string): ImageStore {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) {
    if (name.endsWith(TEMP_SUFFIX)) rmSync(join(dir, name), { force: true });
  }

  return {
    dir,

    async write(bytes, extension) {
      const name = `${newId()}.${extension}`;
      if (!isStoredImageName(name)) throw new Error(`Not an image extension: ${JSON.stringify(extension)}`);
      await writeFileDurably(dir, name, bytes);
      return name;
    },

    remove(name) {
      if (!isStoredImageName(name)) return false;
      try {
        rmSync(join(dir, name), { force: true });
        return true;
      } catch {
        return false;
      }
    },

    pathOf(name) {
      return isStoredImageName(name) ? join(dir, name) : undefined;
    },

    list() {
      return readdirSync(dir).filter(isStoredImageName);
    },
  };
}
