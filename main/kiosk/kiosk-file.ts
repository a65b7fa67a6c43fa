import { chmodSync, closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { KIOSK_CONFIG_FILE } from '../../shared/kiosk-config.js';

/** kiosk.json as JSON: its fields as they stand, whether or not they make a valid config. */
export type KioskFileContent = Record<string, unknown>;

export const kioskFilePath = (dataDir: string) => join(dataDir, KIOSK_CONFIG_FILE);

/** The file's JSON object, or undefined when there is no file; a file that is not a JSON object throws with the reason. */
export function readKioskFile(dataDir: string): KioskFileContent | undefined {
  const file = kioskFilePath(dataDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file} cannot be read: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    // JSON.parse quotes the text around the fault, which may be the key: only the position is told.
    const at = /position \d+(?: \(line \d+ column \d+\))?/.exec((err as Error).message)?.[0];
    throw new Error(`${file} is not valid JSON${at ? ` (at ${at})` : ''}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${file} must hold a JSON object`);
  return json as KioskFileContent;
}

/**
 * Writes the whole file at once (temporary file, fsync, rename), readable by
 * its owner only: it may hold a key and the PIN's hash, and a crash while
 * writing leaves the old file, never half of one.
 */
export function writeKioskFile(dataDir: string, content: KioskFileContent): void {
  const file = kioskFilePath(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(content, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  chmodSync(file, 0o600);
}

/** Reads, changes and writes kiosk.json (an empty object when there is none); returns what was written. */
export function updateKioskFile(dataDir: string, change: (content: KioskFileContent) => KioskFileContent): KioskFileContent {
  const next = change({ ...(readKioskFile(dataDir) ?? {}) });
  writeKioskFile(dataDir, next);
  return next;
}
