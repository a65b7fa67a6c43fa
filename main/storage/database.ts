import Database from 'better-sqlite3';
import { dirname } from 'node:path';
import { keepPrivateIfPresent, makePrivateFile, makePrivateFolder } from '../security/private-files.js';
import { applyMigrations } from './migrate.js';

export type Db = Database.Database;

/** File name of the SQLite database inside `DATA_DIR`. */
export const DATABASE_FILE = 'retail.sqlite';

/**
 * Durability of each commit. WAL with `synchronous = FULL` makes every
 * committed sale survive a power cut, which a till needs more than the last
 * few percent of write speed.
 */
export type Synchronous = 'FULL' | 'NORMAL';

export interface OpenOptions {
  synchronous?: Synchronous;
  readonly?: boolean;
}

/** Opens (creating if needed) the database file and brings its schema up to date. */
export function openDatabase(file: string, options: OpenOptions = {}): Db {
  makePrivateFolder(dirname(file));
  // SQLite gives the WAL and SHM files the database file's mode: 0600 here makes all three private.
  makePrivateFile(file);
  keepPrivateIfPresent(file + '-wal');
  keepPrivateIfPresent(file + '-shm');
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma('foreign_keys = ON');
  // The CLI and the server write to one file from two processes; wait for the
  // other's short transaction instead of failing with SQLITE_BUSY. Every write
  // transaction begins IMMEDIATE (`immediateTransaction`): a deferred one that read
  // first and then met the other's commit would fail at once, without waiting.
  db.pragma('busy_timeout = 5000');
  try {
    applyMigrations(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/** Per connection: told after a commit that skipped its fsync (the group commit flushes the WAL then, off the event loop). */
const unflushedCommitListeners = new WeakMap<Db, () => void>();

/** `listener` runs after each commit of `withoutFsync` on `db`. One per connection. */
export function onCommitWithoutFsync(db: Db, listener: () => void): void {
  unflushedCommitListeners.set(db, listener);
}

/**
 * Runs `write` with `synchronous = NORMAL`: its commit skips the fsync, and
 * the next commit under FULL (any local write) makes it durable with its own.
 * Only for writes that can be redone after a crash (pulled rows, bookkeeping
 * an idempotent retry restores). Switched back before any other statement runs.
 */
export function withoutFsync<T>(db: Db, write: () => T): T {
  // Inside an open transaction (a group of writes) the write rides on its commit, which keeps its fsync.
  if (db.inTransaction) return write();
  if ((db.pragma('synchronous', { simple: true }) as number) <= 1) return write();
  try {
    return withSynchronous(db, 'NORMAL', write);
  } finally {
    unflushedCommitListeners.get(db)?.();
  }
}

/**
 * Runs `run` with `synchronous = level`, then puts the connection's level
 * back. Outside a transaction only: SQLite refuses the change inside one.
 */
export function withSynchronous<T>(db: Db, level: 'OFF' | 'NORMAL', run: () => T): T {
  const before = db.pragma('synchronous', { simple: true }) as number;
  db.pragma(`synchronous = ${level}`);
  try {
    return run();
  } finally {
    db.pragma(`synchronous = ${before}`);
  }
}
