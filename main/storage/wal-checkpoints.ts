import Database from 'better-sqlite3';
import { closeSync, openSync, statSync } from 'node:fs';
import { createCheckpointWorker } from './checkpoint-worker.js';
import { withSynchronous, type Db } from './database.js';
import { flushFile, flushFileNow } from './flush-fault.js';

/** How often the WAL is copied into the database file while writes go on, in ms. */
export const CHECKPOINT_INTERVAL_MS = 100;

/**
 * Pages one checkpoint should copy, about 2 MB: when writes fill the WAL
 * faster (a purge, a large pull), checkpoints come sooner, down to
 * `MIN_INTERVAL_MS`, so that no single copy holds the event loop long.
 */
const PAGES_PER_CHECKPOINT = 500;
const MIN_INTERVAL_MS = 5;

/**
 * SQLite's own checkpoint, inside a COMMIT with its fsyncs on the event loop,
 * stays as a backstop for a WAL this long (40 MB): with the WAL restarting
 * every cycle it is reached only when writes leave no moment for one.
 */
const BACKSTOP_PAGES = 10_000;

/**
 * A WAL file longer than this (the length it is cut back to when it
 * restarts, see group-commit.ts) grew in one burst: its pages are copied on
 * a thread of their own (checkpoint-worker.ts), as are those of a held
 * group's large write (`afterLargeWrite`).
 */
const OFF_THREAD_WAL_BYTES = 16 * 1024 * 1024;

/**
 * Checkpoints that keep their fsyncs off the event loop.
 *
 * SQLite's automatic checkpoint runs inside a COMMIT every 1,000 WAL pages: it
 * fsyncs the WAL, copies the pages into the database file and fsyncs that
 * file, all on the thread that serves requests. On a hub those were the
 * longest stalls left. Here, at a moment when no group is open and every
 * group's commit is flushed (the WAL is flushed first for the rest), the
 * server's own connection copies the pages with `synchronous = OFF`
 * (page-cache writes, no fsync; a small copy every 100 ms, or sooner under
 * heavy writes, instead of a large one), then the database file is flushed
 * with `fdatasync` on libuv's thread pool.
 *
 * The WAL may start over from its beginning only once the copied pages are
 * on disk; until then a read transaction on a second connection (the pin)
 * keeps SQLite from restarting it: a writer restarts the WAL only when no
 * reader holds one of its read marks. Groups that end while the database
 * file is being flushed wait for it (`syncing`), so the next group's
 * COMMIT is the one that restarts the WAL and the file stays small.
 *
 * A crash before the flush ends loses nothing: the WAL still holds every
 * page, and SQLite's recovery reads them from there.
 */
export function createWalCheckpoints(db: Db, flushWal: () => void, intervalMs = CHECKPOINT_INTERVAL_MS) {
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  let pin: { connection: Database.Database; read: Database.Statement } | undefined;
  let pinned = false;
  let syncing = false;
  let lastVersion: number | undefined;
  let lastCycle = 0;
  let wait = intervalMs;
  let dbFd: number | undefined;
  let copier: ReturnType<typeof createCheckpointWorker> | undefined;
  let largeWrite = false;
  const walBytes = (): number => {
    try {
      return statSync(`${db.name}-wal`).size;
    } catch {
      return 0;
    }
  };
  /** After a copy of `log` pages: the next checkpoint comes sooner when writes fill the WAL faster. */
  const pace = (log: number, version: number) => {
    // The WAL restarted at the last cycle: `log` pages were written since, at this pace.
    const since = Date.now() - lastCycle;
    wait = log > 0 ? Math.min(intervalMs, Math.max(MIN_INTERVAL_MS, (since * PAGES_PER_CHECKPOINT) / log)) : intervalMs;
    lastVersion = version;
  };

  const pinConnection = () => {
    if (!pin) {
      const connection = new Database(db.name, { fileMustExist: true });
      pin = { connection, read: connection.prepare('SELECT count(*) FROM sqlite_schema') };
    }
    return pin;
  };
  const dataVersion = (): number => pinConnection().connection.pragma('data_version', { simple: true }) as number;
  // `r+`: Windows flushes only a handle opened for writing. Never created here: SQLite owns the file.
  const dbDescriptor = (): number => (dbFd ??= openSync(db.name, 'r+'));

  const unpin = () => {
    if (pinned && pin?.connection.inTransaction) pin.connection.exec('COMMIT');
    pinned = false;
  };

  /**
   * Flushes the copied pages; once on disk, the WAL may restart. A failed
   * flush keeps the pin (the WAL must not restart over pages that may not be
   * on disk) and is passed to `done`: the caller stops writes.
   */
  const flushDatabase = (done: (failure?: unknown) => void) => {
    let fd: number;
    try {
      fd = dbDescriptor();
    } catch (err) {
      lastCycle = Date.now();
      done(err);
      return;
    }
    // Set only once nothing before the flush can throw: a flag left set would hold every later group.
    syncing = true;
    flushFile(fd, 'database', (err) => {
      syncing = false;
      lastCycle = Date.now();
      if (!err && db.open) unpin();
      if (!pin && dbFd !== undefined) {
        // Closed while this flush ran.
        closeSync(dbFd);
        dbFd = undefined;
      }
      done(err ?? undefined);
    });
  };

  return {
    /** A large write committed (a held group's): the next checkpoint copies its pages on a thread of its own. */
    afterLargeWrite(): void {
      largeWrite = true;
    },
    /** Whether groups must wait before committing: the database file is being flushed. */
    syncing(): boolean {
      return syncing;
    },
    /**
     * Runs a checkpoint if one is due. Call only when no transaction is open
     * on the connection and every group's commit is flushed; commits made
     * without an fsync of their own (`withoutFsync`) may still be in the page
     * cache: the WAL is flushed here first, on this thread (a little data:
     * what they wrote since the last flush). Returns whether it flushed the
     * WAL; `done` runs once the database file's flush ended, with its failure
     * if it failed (not at all when nothing ran).
     */
    run(done: (failure?: unknown) => void): boolean {
      if (syncing || !db.open || db.inTransaction || Date.now() - lastCycle < wait) return false;
      if (pinned) {
        flushDatabase(done);
        return false;
      }
      let walFlushed = false;
      try {
        const version = dataVersion();
        if (version === lastVersion) {
          lastCycle = Date.now();
          return false;
        }
        flushWal();
        walFlushed = true;
        const reader = pinConnection();
        reader.connection.exec('BEGIN');
        pinned = true;
        reader.read.get();
        if (largeWrite || walBytes() > OFF_THREAD_WAL_BYTES) {
          largeWrite = false;
          // Groups wait meanwhile (`syncing`), as for the flush that follows: the next COMMIT is the one that restarts the WAL.
          syncing = true;
          void (copier ??= createCheckpointWorker(db.name)).copy().then(
            (log) => {
              syncing = false;
              pace(log, version);
              flushDatabase(done);
            },
            () => {
              // As below: the next cycle tries again; pages copied before the error reach the disk before the pin goes.
              syncing = false;
              lastCycle = Date.now();
              flushDatabase(done);
            },
          );
          return walFlushed;
        }
        const { log } = withSynchronous(db, 'OFF', () => checkpoint.get() as { log: number });
        pace(log, version);
      } catch {
        // A statement still reading on the connection, or a lock held elsewhere: the next cycle tries again.
        lastCycle = Date.now();
        // Pages may have been copied before the error: they reach the disk before the pin goes.
        if (!pinned) return walFlushed;
      }
      flushDatabase(done);
      return walFlushed;
    },
    /** Waits for the database file's flush, here and now (before the connection closes), and lets the pin go; throws if the flush failed, keeping the pin. */
    close(): void {
      if (pinned && db.open) flushFileNow(dbDescriptor(), 'database');
      unpin();
      pin?.connection.close();
      pin = undefined;
      void copier?.close();
      copier = undefined;
      // A flush still on the thread pool keeps its descriptor; its end finds the pin gone.
      if (dbFd !== undefined && !syncing) {
        closeSync(dbFd);
        dbFd = undefined;
      }
    },
  };
}
