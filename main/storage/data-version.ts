import type { Db } from './database.js';

/**
 * SQLite's `PRAGMA data_version` on this connection: it moves whenever another
 * connection (the CLI in another process, say) commits to the file, and never
 * for this connection's own writes. One read costs about a microsecond, so a
 * cache of file contents can check it on every request.
 */
export function dataVersion(db: Db): () => number {
  const read = db.prepare<[], number>('PRAGMA data_version').pluck();
  return () => read.get()!;
}
