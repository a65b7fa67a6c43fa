import { onCommitWithoutFsync, type Db } from './database.js';
import { GroupLedger, newGroup, tookWrites, type AfterCommit, type Group } from './group-ledger.js';
import { ReadGate } from './read-gate.js';
import { CHECKPOINT_INTERVAL_MS, createWalCheckpoints } from './wal-checkpoints.js';
import { createWalFlush, flushFailure } from './wal-flush.js';

export interface GroupCommitOptions {
  /** How long a group stays open for further writes after the first joined it, in ms. */
  windowMs: number;
  /**
   * The window of a group opened by an unattended write (one another server
   * sends in the background, no person waiting for its answer), in ms. A
   * write someone waits for that joins such a group closes it within its own
   * `windowMs`.
   */
  unattendedWindowMs: number;
  /** A group commits as soon as this many writes joined it, even inside its window. */
  maxWrites: number;
}

/**
 * The server's pace: a till's sale waits at most 2 ms for others to share its
 * fsync; a store PC's pushed sale or heartbeat, at a hub, up to 10 ms.
 */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { windowMs: 2, unattendedWindowMs: 10, maxWrites: 256 };

/** Bytes the WAL file is cut back to when it restarts after growing past them. */
const WAL_SIZE_LIMIT = 16 * 1024 * 1024;

/**
 * Thrown to the waiters of a group SQLite itself rolled back (after an I/O or
 * disk error in one of its statements), when no request named the cause.
 */
function groupLost(): Error {
  return Object.assign(new Error('The transaction of a group of writes was rolled back after a disk error'), { code: 'SQLITE_IOERR' });
}

/** Told to every write after a flush failed: the server takes no write until it restarted and recovered. */
function writesStopped(failure: unknown): Error {
  const why = (failure as Error | null)?.message ?? String(failure);
  return Object.assign(new Error(`Writes stopped after a flush to disk failed (${why}); the server restarts and recovers`), { code: 'SQLITE_IOERR', cause: failure });
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
 * The durability rules, in the order this file applies them:
 *
 * 1. On a connection with `synchronous = FULL`, a group commits with `NORMAL`
 *    (the level goes back to FULL at once, also when BEGIN fails), and its WAL
 *    is then flushed with `fdatasync` on libuv's thread pool: the event loop
 *    goes on serving requests (and the next group) during the flush.
 * 2. A group's waiters run once a flush that started after its COMMIT ended,
 *    so an answer still means "on disk". Commits of `withoutFsync` are flushed
 *    the same way.
 * 3. Between groups the WAL is checkpointed without an fsync on the event
 *    loop (wal-checkpoints.ts); the WAL restarts only after the database
 *    file's flush.
 * 4. Fail-stop: when a flush of the WAL or of the database file fails, the
 *    pages it covered may be lost while later flushes of the same file report
 *    success. So the connection takes no further write (`query_only`), every
 *    waiting write is told it failed, no checkpoint runs again, and
 *    `onDiskFailure` ends the process: the next start's recovery replays the
 *    WAL, which still holds every committed page.
 */
export function createGroupCommit(db: Db, options: GroupCommitOptions = DEFAULT_GROUP_COMMIT, onDiskFailure: (failure: unknown) => void = () => {}) {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commitStatement = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const level = db.pragma('synchronous', { simple: true }) as number;
  // Run, not prepared once: SQLite applies `PRAGMA synchronous` when the statement is compiled, so a prepared one changes nothing when run again.
  const skipFsync = () => db.exec('PRAGMA synchronous = NORMAL');
  const restoreLevel = () => db.exec(`PRAGMA synchronous = ${level}`);
  // A connection that skips fsyncs (a benchmark's seed, NORMAL) keeps skipping them.
  const flushes = level >= 2 && !db.memory;
  const ledger = new GroupLedger();
  const wal = createWalFlush(`${db.name}-wal`);
  let stopped: unknown;
  let flushRunning = false;
  let checkpointTimer: NodeJS.Timeout | undefined;
  /** Writes spread over turns of the event loop that keep the open group from committing (an import's). */
  let holds = 0;
  /** SQLite's automatic checkpoint length while a held group is open, put back once it closed. */
  let heldAutocheckpoint: number | undefined;

  /** Reads see no write of a group before it is on disk: one waits while a group is open or a committed one is being flushed. */
  const gate: ReadGate = new ReadGate(
    {
      readable: (since, changeFeed) =>
        stopped !== undefined ||
        (holds > 0 && ledger.open !== undefined && !changeFeed) ||
        (((since as Group | undefined)?.settled ?? true) && !ledger.open && !ledger.unflushed.some(tookWrites) && !ledger.flushing.some(tookWrites)),
      latest: () => ledger.latest(),
      groupOpen: () => ledger.open !== undefined,
      closeBy: (at) => closeBy(at),
    },
    options.windowMs,
  );

  /** Tells a group's waiters how it ended, then lets through the reads and writes that waited for that. */
  const settle = (groups: Group[], failure: unknown) => {
    try {
      ledger.settle(groups, failure);
    } finally {
      gate.drain();
    }
  };

  const rollBack = () => {
    try {
      if (db.open && db.inTransaction) rollback.run();
    } catch {
      // The connection lost its transaction on its own (SQLite rolls back after an I/O error).
    }
  };

  const closeGroup = (group: Group) => {
    ledger.open = undefined;
    clearTimeout(group.timer);
    if (heldAutocheckpoint !== undefined) {
      if (db.open) db.pragma(`wal_autocheckpoint = ${heldAutocheckpoint}`);
      checkpoints?.afterLargeWrite();
    }
    heldAutocheckpoint = undefined;
    if (flushes && db.open && !db.inTransaction) restoreLevel();
  };

  /** Rule 4: once a flush failed, nothing is written, flushed or checkpointed again in this process. */
  const failStop = (failure: unknown) => {
    if (stopped !== undefined) return;
    stopped = failure;
    clearInterval(checkpointTimer);
    checkpointTimer = undefined;
    const open = ledger.open;
    rollBack();
    if (open) closeGroup(open);
    if (db.open) db.pragma('query_only = ON');
    try {
      settle([...(open ? [open] : []), ...ledger.takeCommitted()], failure);
    } finally {
      onDiskFailure(failure);
    }
  };

  /** The WAL flushed here and now (before a checkpoint, at close); a failure stops writes. */
  const flushWalNow = () => {
    try {
      wal.flushNow();
    } catch (err) {
      const failure = flushFailure(err);
      failStop(failure);
      throw failure;
    }
  };
  const checkpoints = flushes ? createWalCheckpoints(db, flushWalNow) : undefined;

  /** After a flush: a group that came due meanwhile commits; otherwise a checkpoint, then the next flush. */
  const next = () => {
    if (ledger.open?.due && holds === 0 && !checkpoints?.syncing()) commit();
    else {
      checkpoint();
      startFlush();
    }
  };

  /** Rule 2: the flush of every group committed so far. */
  const startFlush = () => {
    if (stopped !== undefined || flushRunning || ledger.unflushed.length === 0) return;
    const batch = ledger.startFlush();
    flushRunning = true;
    void wal.flush().then(
      () => {
        flushRunning = false;
        ledger.endFlush(batch);
        try {
          settle(batch, undefined);
        } finally {
          next();
        }
      },
      (err: unknown) => {
        flushRunning = false;
        ledger.endFlush(batch);
        const failure = flushFailure(err);
        try {
          settle(batch, failure);
        } finally {
          failStop(failure);
        }
      },
    );
  };

  /**
   * Rule 3: copies the WAL into the database file when every group's commit
   * is on disk and no group is open. Commits of `withoutFsync` waiting for a
   * flush do not hold it back (a pull's or a purge's slices follow one
   * another faster than flushes end): the checkpoint flushes the WAL first,
   * and they are settled with it.
   */
  const checkpoint = () => {
    if (!checkpoints || stopped !== undefined || ledger.open || flushRunning || ledger.unflushed.some(tookWrites)) return;
    const walFlushed = checkpoints.run((failure) => {
      if (failure !== undefined) failStop(flushFailure(failure));
      else if (ledger.open?.due && holds === 0 && !flushRunning) commit();
      else startFlush();
    });
    if (!walFlushed) return;
    const ungrouped = ledger.unflushed;
    ledger.unflushed = [];
    settle(ungrouped, undefined);
  };

  const commit = () => {
    const group = ledger.open;
    if (!group) return;
    if (!db.open || !db.inTransaction) {
      closeGroup(group);
      settle([group], group.cause ?? groupLost());
      return;
    }
    try {
      commitStatement.run();
    } catch (err) {
      rollBack();
      closeGroup(group);
      settle([group], err);
      return;
    }
    closeGroup(group);
    if (!flushes) {
      settle([group], undefined);
      return;
    }
    ledger.unflushed.push(group);
    startFlush();
  };

  /** The end of a group's window: it commits, or, while a flush, a checkpoint's flush or a hold is under way, it is due. */
  const windowEnded = (group: Group) => () => {
    // While the database file is flushed after a checkpoint, the group's COMMIT waits: it is the one that restarts the WAL.
    // A held group commits when the last hold ends.
    if ((holds > 0 || flushRunning || checkpoints?.syncing()) && ledger.open === group) group.due = true;
    else commit();
  };

  /** Rule 1: a new group, its level lowered only for its own COMMIT. */
  const openGroup = (windowMs: number): Group => {
    // Outside a transaction: SQLite refuses to change the level inside one.
    if (flushes) skipFsync();
    try {
      begin.run();
    } catch (err) {
      // SQLITE_BUSY past `busy_timeout`, or the disk: writes outside groups must keep their own fsync.
      if (flushes) restoreLevel();
      throw err;
    }
    const group = newGroup();
    // While the previous group's flush runs, this one keeps taking writes: they share the next flush either way.
    group.closesAt = performance.now() + windowMs;
    group.timer = setTimeout(windowEnded(group), windowMs);
    armCheckpoints();
    return group;
  };

  /** The open group commits by `closesAt` (`performance.now()` time) at the latest. */
  const closeBy = (closesAt: number) => {
    const group = ledger.open;
    if (!group || group.due || closesAt >= group.closesAt) return;
    clearTimeout(group.timer);
    group.closesAt = closesAt;
    group.timer = setTimeout(windowEnded(group), Math.max(0, closesAt - performance.now()));
  };

  /** A write someone waits for joined a group opened by an unattended one: the group closes within the joining write's window. */
  const hasten = () => closeBy(performance.now() + options.windowMs);

  /** Writes that commit outside groups (bookkeeping, purges) are checkpointed too, while requests are quiet. */
  const armCheckpoints = () => {
    if (!checkpoints || checkpointTimer || stopped !== undefined) return;
    checkpointTimer = setInterval(checkpoint, CHECKPOINT_INTERVAL_MS);
    checkpointTimer.unref();
  };
  armCheckpoints();
  if (flushes) {
    // A WAL that grew in a burst (a large pull before the next checkpoint) shrinks back when it restarts.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    // A commit outside groups that skipped its fsync is flushed like a group's: `committed()` waits for it too.
    onCommitWithoutFsync(db, () => {
      // Once writes stopped, nothing will flush it: a group waiting for that would hold its waiters for ever.
      if (stopped !== undefined) return;
      ledger.unflushed.push(newGroup());
      startFlush();
    });
  }

  return {
    /**
     * A write starts: opens a group, or joins the open one. Pair with `left`
     * once the write's synchronous part returned; a write that goes on after
     * an await is no longer waited for (its later statements run in whatever
     * group is open then, or on their own). `unattended`: no person waits for
     * its answer (see `unattendedWindowMs`). Throws once writes stopped.
     */
    join(unattended = false): void {
      if (stopped !== undefined) throw writesStopped(stopped);
      if (ledger.open && !db.inTransaction) commit();
      if (!ledger.open) {
        // Someone's own transaction is open (a caller in the middle of one): it commits on its own.
        if (db.inTransaction) return;
        ledger.open = openGroup(unattended ? options.unattendedWindowMs : options.windowMs);
      } else if (!unattended) {
        hasten();
      }
      ledger.open.writes += 1;
    },
    /**
     * The write that joined last returned. `cause` is the error it met, if any:
     * should SQLite have rolled the whole group back under it, that is what
     * every write of the group is told.
     */
    left(cause?: unknown): void {
      const group = ledger.open;
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
    hold(): { intact(): boolean; fail(cause: unknown): void; release(): void; flushAhead(): void } {
      this.join();
      const group = ledger.open;
      holds += 1;
      // A held group can write more WAL pages than SQLite's backstop allows: its COMMIT would then copy them all into the
      // database file, with two fsyncs, on the server's thread. The checkpoints between groups copy them instead.
      heldAutocheckpoint ??= db.pragma('wal_autocheckpoint', { simple: true }) as number;
      db.pragma('wal_autocheckpoint = 0');
      // Reads other than the change feed's go on under a held group.
      gate.drain();
      let released = false;
      return {
        intact: () => ledger.open === group && db.open && db.inTransaction,
        fail: (cause) => {
          if (group) group.cause ??= cause;
          if (ledger.open === group) rollBack();
        },
        /**
         * Flushes what the held write put in the WAL so far, on the thread
         * pool, unless a flush runs already: frames without their commit are
         * ignored by recovery, and the flush after the COMMIT, which reads wait
         * for, then has only the last of them to write.
         */
        flushAhead: () => {
          if (!flushes || flushRunning || stopped !== undefined || ledger.open !== group) return;
          flushRunning = true;
          void wal.flush().then(
            () => {
              flushRunning = false;
              next();
            },
            (err: unknown) => {
              flushRunning = false;
              failStop(flushFailure(err));
            },
          );
        },
        release: () => {
          if (released) return;
          released = true;
          holds -= 1;
          if (holds > 0 || ledger.open !== group || !group) return;
          // As its timer would: a flush or a checkpoint under way commits the group when it ends.
          if (!db.inTransaction || (group.due && !flushRunning && !checkpoints?.syncing())) commit();
        },
      };
    },
    /** Whether a write spread over several turns holds the open group (see `hold`). */
    held(): boolean {
      return holds > 0 && ledger.open !== undefined;
    },
    /**
     * Runs `then` once the open group, and every group committed before it,
     * is on disk (with the failure, if one failed) and returns true; returns
     * false, running nothing, when every write is already on disk. Once writes
     * stopped, runs `then` with the failure at once.
     */
    afterCommit(then: AfterCommit): boolean {
      if (stopped !== undefined) {
        then(writesStopped(stopped));
        return true;
      }
      const group = ledger.latest();
      if (!group) return false;
      group.waiting.push(then);
      return true;
    },
    /**
     * A read (of the change feed, `changeFeed`, which other servers copy, or
     * not) that must see no write short of the disk: returns false when it
     * may run at once, else true, having queued `read` to run once the group
     * open now and every one that took writes since are on disk and no group
     * is open. Writes that would open a group meanwhile wait until it read:
     * it calls `done` once it has (its answer begun). Under a group a large
     * write holds open (`hold`), reads other than the change feed's run at once.
     */
    whenReadable(changeFeed: boolean, read: (done: () => void) => void): boolean {
      return gate.read(changeFeed, read);
    },
    /**
     * A write about to `join`: returns true, having queued `write` to run
     * once the reads waiting for the groups before it have read (it then
     * commits within its window of now), or false when it may join at once.
     */
    whenWritable(unattended: boolean, write: () => void): boolean {
      return stopped === undefined && gate.write(unattended ? options.unattendedWindowMs : options.windowMs, write);
    },
    /** Resolves once every write so far is on disk: what is read then has been committed for good. At once after writes stopped (the process is ending). */
    committed(): Promise<void> {
      return new Promise((resolve) => {
        const group = stopped === undefined ? ledger.latest() : undefined;
        if (!group) resolve();
        else group.waiting.push(() => resolve());
      });
    },
    /** How many groups failed to commit so far: a write in flight while one did cannot count on its own commit. */
    failures(): number {
      return ledger.failures;
    },
    /** Why the latest failed group failed. */
    lastFailure(): unknown {
      return ledger.lastFailure;
    },
    /** The flush failure that stopped writes, if one did: then nothing may checkpoint or close the database cleanly. */
    stopped(): unknown {
      return stopped;
    },
    /** Commits the open group now and flushes every committed one, waiting on the disk (before closing the database). */
    flush(): void {
      // A write still spread over turns is cut off whole, never committed half done.
      if (holds > 0 && ledger.open) rollBack();
      commit();
      const waiting = ledger.takeCommitted();
      try {
        if (stopped === undefined && waiting.length > 0) flushWalNow();
        // After a failed flush the pin stays: the WAL must not restart over pages that may not be on disk.
        if (stopped === undefined) checkpoints?.close();
      } catch (err) {
        failStop(flushFailure(err));
      } finally {
        clearInterval(checkpointTimer);
        checkpointTimer = undefined;
        wal.release();
      }
      settle(waiting, stopped);
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
