import { closeSync, openSync } from 'node:fs';
import { flushFile, flushFileNow } from './flush-fault.js';

/** What the disk said (EIO, ENOSPC) where it said it; otherwise an I/O error all the same: the writes are not on disk. */
export function flushFailure(cause: unknown): unknown {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'EIO' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') return cause;
  return Object.assign(new Error(`The write-ahead log could not be flushed to disk: ${(cause as Error | null)?.message ?? String(cause)}`), { code: 'SQLITE_IOERR', cause });
}

/**
 * The WAL file, opened once for its flushes. It stays in place while the
 * server's connection is open (SQLite deletes it only when the last
 * connection closes, and a checkpoint truncates it without replacing it).
 */
export function createWalFlush(file: string) {
  let fd: number | undefined;
  let inFlight = 0;
  let releasing = false;
  const closeWhenIdle = () => {
    if (!releasing || inFlight > 0 || fd === undefined) return;
    closeSync(fd);
    fd = undefined;
    releasing = false;
  };
  // `r+`: Windows flushes only a handle opened for writing. Never created here: SQLite owns the file.
  const descriptor = (): number => (fd ??= openSync(file, 'r+'));
  return {
    flush(): Promise<void> {
      return new Promise((resolve, reject) => {
        let target: number;
        try {
          target = descriptor();
        } catch (err) {
          reject(err);
          return;
        }
        inFlight += 1;
        flushFile(target, 'wal', (err) => {
          inFlight -= 1;
          closeWhenIdle();
          if (err) reject(err);
          else resolve();
        });
      });
    },
    flushNow(): void {
      flushFileNow(descriptor(), 'wal');
    },
    /** Closes the file once no flush is under way on it; a later flush opens it again. */
    release(): void {
      releasing = true;
      closeWhenIdle();
    },
  };
}
