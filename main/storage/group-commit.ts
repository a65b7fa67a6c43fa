import { closeSync, fdatasync, fdatasyncSync, openSync } from 'node:fs';
import { onCommitWithoutFsync, type Db } from './database.js';
import { CHECKPOINT_INTERVAL_MS, createWalCheckpoints } from './wal-checkpoints.js';

export interface GroupCommitOptions {
  /** How long a group stays open for further writes after the first joined it, in ms. */
  windowMs: number;
  /** A group commits as soon as this many writes joined it, even inside its window. */
  maxWrites: number;
}

/** The server's pace: a sale waits at most 2 ms for others to share its fsync. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { windowMs: 2, maxWrites: 256 };

/** Bytes the WAL file is cut back to when it restarts after growing past them. */
const WAL_SIZE_LIMIT = 16 * 1024 * 1024;

/** Called once the group it waited for ended: without an error when it committed, with the cause when it did not. */
export type AfterCommit = (failure: unknown) => void;

/**
 * Thrown to the waiters of a group SQLite itself rolled back (after an I/O or
 * disk error in one of its statements), when no request named the cause.
 */
function groupLost(): Error {
  return Object.assign(new Error('The transaction of a group of writes was rolled back after a disk error'), { code: 'SQLITE_IOERR' });
}

/** What the disk said (EIO, ENOSPC) where it said it; otherwise an I/O error all the same: the writes are not on disk. */
function flushFailure(cause: unknown): unknown {
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'EIO' || code === 'ENOSPC' || code === 'EDQUOT' || code === 'EROFS') return cause;
  return Object.assign(new Error(`The write-ahead log could not be flushed to disk: ${(cause as Error | null)?.message ?? String(cause)}`), { code: 'SQLITE_IOERR', cause });
}

interface Group {
  writes: number;
  waiting: AfterCommit[];
  timer: NodeJS.Timeout | undefined;
  /** What a request saw go wrong when the transaction vanished under it. */
  cause: unknown;
  settled: boolean;
  /** Its window ended while the previous group's flush (or a checkpoint's) ran: it commits when that flush ends. */
  due: boolean;
}

/**
 * Group commit: writes that arrive within a few milliseconds share one
 * transaction (BEGIN IMMEDIATE ... COMMIT) and so one fsync, instead of one
 * fsync each. Every statement run on this connection while a group is open
 * belongs to it, a `db.transaction()` becoming a savepoint that rolls back on
 * its own. Whoever must not answer or act before a write is durable waits with
 * `afterCommit`. One group at a time; SQLite's lock (with `busy_timeout`) keeps
 * other processes' writes out while it is open.
 *
 * On a connection with `synchronous = FULL`, a group commits with `NORMAL` and
 * its WAL is then flushed with `fdatasync` on libuv's thread pool: the event
 * loop goes on serving requests (and the next group) during the flush, which
 * on a hub was a fifth of its time. A group's waiters run once a flush that
 * started after its COMMIT ended, so an answer still means "on disk".
 * Commits of `withoutFsync` are flushed the same way, and between groups the
 * WAL is checkpointed without an fsync on the event loop (wal-checkpoints.ts).
 */
export function createGroupCommit(db: Db, options: GroupCommitOptions = DEFAULT_GROUP_COMMIT) {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commitStatement = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const level = db.pragma('synchronous', { simple: true }) as number;
  // Run, not prepared once: SQLite applies `PRAGMA synchronous` when the statement is compiled, so a prepared one changes nothing when run again.
  const skipFsync = () => db.exec('PRAGMA synchronous = NORMAL');
  const restoreLevel = () => db.exec(`PRAGMA synchronous = ${level}`);
  // A connection that skips fsyncs (a benchmark's seed, NORMAL) keeps skipping them.
  const flushes = level >= 2 && !db.memory;
  const wal = createWalFlush(`${db.name}-wal`);
  const checkpoints = flushes ? createWalCheckpoints(db, () => wal.flushNow()) : undefined;
  let checkpointTimer: NodeJS.Timeout | undefined;
  let open: Group | undefined;
  /** Committed groups whose flush has not started. */
  let unflushed: Group[] = [];
  /** Committed groups whose flush is under way. */
  let flushing: Group[] = [];
  let flushRunning = false;
  let failures = 0;
  let lastFailure: unknown;
  /** Writes spread over turns of the event loop that keep the open group from committing (an import's). */
  let holds = 0;

  /** Ends groups (those not ended yet): every waiter runs even if one throws; the first error is raised after them. */
  const settle = (groups: Group[], failure: unknown) => {
    const waiters: AfterCommit[] = [];
    for (const group of groups) {
      if (group.settled) continue;
      group.settled = true;
      waiters.push(...group.waiting);
      if (failure !== undefined) {
        failures += 1;
        lastFailure = failure;
      }
    }
    let thrown: { error: unknown } | undefined;
    for (const waiter of waiters) {
      try {
        waiter(failure);
      } catch (error) {
        thrown ??= { error };
      }
    }
    if (thrown) throw thrown.error;
  };

  const newGroup = (): Group => ({ writes: 0, waiting: [], timer: undefined, cause: undefined, settled: false, due: false });

  const startFlush = () => {
    if (flushRunning || unflushed.length === 0) return;
    const batch = unflushed;
    unflushed = [];
    flushing = batch;
    flushRunning = true;
    void wal.flush().then(
      () => undefined,
      (err: unknown) => flushFailure(err),
    ).then((failure) => {
      flushRunning = false;
      if (flushing === batch) flushing = [];
      try {
        settle(batch, failure);
      } finally {
        if (open?.due && holds === 0 && !checkpoints?.syncing()) commit();
        else {
          checkpoint();
          startFlush();
        }
      }
    });
  };

  /**
   * Copies the WAL into the database file when every group's commit is on
   * disk and no group is open. Commits of `withoutFsync` waiting for a flush
   * do not hold it back (a pull's or a purge's slices follow one another
   * faster than flushes end): the checkpoint flushes the WAL first, and they
   * are settled with it.
   */
  const checkpoint = () => {
    if (!checkpoints || open || flushRunning || unflushed.some((group) => group.writes > 0)) return;
    const walFlushed = checkpoints.run(() => {
      if (open?.due && holds === 0 && !flushRunning) commit();
      else startFlush();
    });
    if (!walFlushed) return;
    const ungrouped = unflushed;
    unflushed = [];
    settle(ungrouped, undefined);
  };

  const close = (group: Group) => {
    open = undefined;
    clearTimeout(group.timer);
    if (flushes && db.open) restoreLevel();
  };

  const commit = () => {
    const group = open;
    if (!group) return;
    if (!db.open || !db.inTransaction) {
      close(group);
      settle([group], group.cause ?? groupLost());
      return;
    }
    try {
      commitStatement.run();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      close(group);
      settle([group], err);
      return;
    }
    close(group);
    if (!flushes) {
      settle([group], undefined);
      return;
    }
    unflushed.push(group);
    startFlush();
  };

  /** Writes that commit outside groups (bookkeeping, purges) are checkpointed too, while requests are quiet. */
  const armCheckpoints = () => {
    if (!checkpoints || checkpointTimer) return;
    checkpointTimer = setInterval(checkpoint, CHECKPOINT_INTERVAL_MS);
    checkpointTimer.unref();
  };
  armCheckpoints();
  if (flushes) {
    // A WAL that grew in a burst (a large pull before the next checkpoint) shrinks back when it restarts.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    // A commit outside groups that skipped its fsync is flushed like a group's: `committed()` waits for it too.
    onCommitWithoutFsync(db, () => {
      unflushed.push(newGroup());
      startFlush();
    });
  }

  /** The latest group not settled yet: a waiter added to it runs after every earlier write is durable. */
  const latest = (): Group | undefined => open ?? unflushed.at(-1) ?? flushing.at(-1);

  return {
    /**
     * A write starts: opens a group, or joins the open one. Pair with `left`
     * once the write's synchronous part returned; a write that goes on after
     * an await is no longer waited for (its later statements run in whatever
     * group is open then, or on their own).
     */
    join(): void {
      if (open && !db.inTransaction) commit();
      if (!open) {
        // Someone's own transaction is open (a caller in the middle of one): it commits on its own.
        if (db.inTransaction) return;
        // Outside a transaction: SQLite refuses to change the level inside one.
        if (flushes) skipFsync();
        begin.run();
        const group = newGroup();
        // While the previous group's flush runs, this one keeps taking writes: they share the next flush either way.
        group.timer = setTimeout(() => {
          // While the database file is flushed after a checkpoint, the group's COMMIT waits: it is the one that restarts the WAL.
          // A held group commits when the last hold ends.
          if ((holds > 0 || flushRunning || checkpoints?.syncing()) && open === group) group.due = true;
          else commit();
        }, options.windowMs);
        armCheckpoints();
        open = group;
      }
      open.writes += 1;
    },
    /**
     * The write that joined last returned. `cause` is the error it met, if any:
     * should SQLite have rolled the whole group back under it, that is what
     * every write of the group is told.
     */
    left(cause?: unknown): void {
      const group = open;
      if (!group) return;
      if (!db.inTransaction) {
        group.cause ??= cause;
        commit();
      } else if (group.writes >= options.maxWrites && holds === 0) {
        commit();
      }
    },
    /**
     * Keeps a group open across turns of the event loop, for one write too
     * large to run in a single turn (a catalog import): it runs in slices,
     * all in this group's transaction, so it commits whole or not at all.
     * Writes arriving meanwhile join the group and their answers wait for its
     * commit; reads go on (`held`). `fail` rolls the whole group back, and
     * every write in it is told so. The group commits once the last hold is
     * released.
     */
    hold(): { intact(): boolean; fail(cause: unknown): void; release(): void } {
      this.join();
      const group = open;
      holds += 1;
      let released = false;
      return {
        intact: () => open === group && db.open && db.inTransaction,
        fail: (cause) => {
          if (group) group.cause ??= cause;
          if (open === group && db.inTransaction) rollback.run();
        },
        release: () => {
          if (released) return;
          released = true;
          holds -= 1;
          if (holds > 0 || open !== group || !group) return;
          // As its timer would: a flush or a checkpoint under way commits the group when it ends.
          if (!db.inTransaction || (group.due && !flushRunning && !checkpoints?.syncing())) commit();
        },
      };
    },
    /** Whether a write spread over several turns holds the open group (see `hold`). */
    held(): boolean {
      return holds > 0 && open !== undefined;
    },
    /**
     * Runs `then` once the open group, and every group committed before it,
     * is on disk (with the failure, if one failed) and returns true; returns
     * false, running nothing, when every write is already on disk.
     */
    afterCommit(then: AfterCommit): boolean {
      const group = latest();
      if (!group) return false;
      group.waiting.push(then);
      return true;
    },
    /** Resolves once every write so far is on disk: what is read then has been committed for good. */
    committed(): Promise<void> {
      return new Promise((resolve) => {
        const group = latest();
        if (!group) resolve();
        else group.waiting.push(() => resolve());
      });
    },
    /** How many groups failed to commit so far: a write in flight while one did cannot count on its own commit. */
    failures(): number {
      return failures;
    },
    /** Why the latest failed group failed. */
    lastFailure(): unknown {
      return lastFailure;
    },
    /** Commits the open group now and flushes every committed one, waiting on the disk (before closing the database). */
    flush(): void {
      // A write still spread over turns is cut off whole, never committed half done.
      if (holds > 0 && open && db.open && db.inTransaction) rollback.run();
      commit();
      const waiting = [...flushing, ...unflushed];
      flushing = [];
      unflushed = [];
      let failure: unknown;
      try {
        if (waiting.length > 0) wal.flushNow();
      } catch (err) {
        failure = flushFailure(err);
      } finally {
        clearInterval(checkpointTimer);
        checkpointTimer = undefined;
        checkpoints?.close();
        wal.release();
      }
      settle(waiting, failure);
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;

/**
 * The WAL file, opened once for its flushes. It stays in place while the
 * server's connection is open (SQLite deletes it only when the last
 * connection closes, and a checkpoint truncates it without replacing it).
 */
function createWalFlush(file: string) {
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
        fdatasync(target, (err) => {
          inFlight -= 1;
          closeWhenIdle();
          if (err) reject(err);
          else resolve();
        });
      });
    },
    flushNow(): void {
      fdatasyncSync(descriptor());
    },
    /** Closes the file once no flush is under way on it; a later flush opens it again. */
    release(): void {
      releasing = true;
      closeWhenIdle();
    },
  };
}
