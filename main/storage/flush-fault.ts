import { existsSync, fdatasync, fdatasyncSync, readFileSync, rmSync } from 'node:fs';

/** Which file a flush makes durable. */
export type FlushTarget = 'wal' | 'database';

// Only under the test runner, which the product never is; read at each flush, so that a test running the server in its own process can arm it.
const triggerFile = () => (process.env.NODE_ENV === 'test' ? process.env.STORE_SERVER_FAIL_FLUSH_FILE : undefined);

/**
 * Test-only seam: while the file named by STORE_SERVER_FAIL_FLUSH_FILE holds
 * `wal` or `database`, the next flush of that file fails with EIO as a
 * failing disk's `fdatasync` would, and the file is removed. Does nothing
 * unless NODE_ENV is `test` and the variable is set.
 */
function injectedFailure(target: FlushTarget): Error | undefined {
  const trigger = triggerFile();
  if (trigger === undefined || !existsSync(trigger)) return undefined;
  if (readFileSync(trigger, 'utf8').trim() !== target) return undefined;
  rmSync(trigger, { force: true });
  return Object.assign(new Error(`EIO: i/o error, fdatasync (injected by ${trigger})`), { code: 'EIO', errno: -5, syscall: 'fdatasync' });
}

/** `fdatasync` on libuv's thread pool, through the test seam. */
export function flushFile(fd: number, target: FlushTarget, done: (err: NodeJS.ErrnoException | null) => void): void {
  const failure = injectedFailure(target);
  if (failure) setImmediate(() => done(failure));
  else fdatasync(fd, done);
}

/** `fdatasync` here and now, through the test seam. */
export function flushFileNow(fd: number, target: FlushTarget): void {
  const failure = injectedFailure(target);
  if (failure) throw failure;
  fdatasyncSync(fd);
}
