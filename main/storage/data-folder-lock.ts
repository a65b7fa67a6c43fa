import { randomBytes } from 'node:crypto';
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/** File in `DATA_DIR` naming the process that holds the folder: a running server or a restore. */
export const LOCK_FILE = 'data.lock';

interface LockContent {
  pid: number;
  holder: string;
  since: string;
  token: string;
}

/** The data folder is held by another live process. */
export class DataFolderInUse extends Error {
  readonly holder: string;
  readonly pid: number;
  constructor(dataDir: string, lock: LockContent) {
    super(`${dataDir} is in use by a ${lock.holder} (process ${lock.pid}, since ${lock.since}); stop it first`);
    this.holder = lock.holder;
    this.pid = lock.pid;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(file: string): LockContent | undefined {
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as LockContent;
    return Number.isInteger(lock.pid) ? lock : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The live process holding the folder other than this one, if any. A lock
 * left by a process that died (a power cut, kill -9) does not count.
 */
export function dataFolderHolder(dataDir: string): LockContent | undefined {
  const lock = readLock(join(dataDir, LOCK_FILE));
  return lock !== undefined && lock.pid !== process.pid && isAlive(lock.pid) ? lock : undefined;
}

/**
 * Takes the data folder for this process, or throws `DataFolderInUse`.
 * Servers of one process (tests, the desktop app) may share a folder.
 * @returns the function that releases it
 */
export function lockDataFolder(dataDir: string, holder: string): () => void {
  const file = join(dataDir, LOCK_FILE);
  const token = randomBytes(12).toString('hex');
  const content: LockContent = { pid: process.pid, holder, since: new Date().toISOString(), token };
  for (let attempt = 0; ; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(content) + '\n');
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw err;
      const current = dataFolderHolder(dataDir);
      if (current !== undefined) throw new DataFolderInUse(dataDir, current);
      rmSync(file, { force: true });
    }
  }
  return () => {
    if (readLock(file)?.token === token) rmSync(file, { force: true });
  };
}
