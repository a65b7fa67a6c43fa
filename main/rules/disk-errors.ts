/**
 * What to tell a till when a write failed because of the disk rather than the
 * request: the disk is full, the data folder became read-only, or the disk
 * failed. These pass once an operator frees space or fixes the folder, so
 * they are a 503 (try again later), never a 500; reads keep working.
 * Returns undefined for every other error.
 */
export function diskFailureMessage(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return 'The change was not saved: the disk of the store PC is full. Reading still works; free disk space and send the change again.';
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') {
    return 'The change was not saved: the data folder of the store PC is read-only. Reading still works; make the folder writable and send the change again.';
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return 'The change was not saved: the disk of the store PC reported an input/output error. Reading still works; check the disk and send the change again.';
  }
  return undefined;
}
