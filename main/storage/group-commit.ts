import type { Db } from './database.js';

export interface GroupCommitOptions {
  /** How long a group stays open for further writes after the first joined it, in ms. */
  windowMs: number;
  /** A group commits as soon as this many writes joined it, even inside its window. */
  maxWrites: number;
}

/** The server's pace: a sale waits at most 2 ms for others to share its fsync. */
export const DEFAULT_GROUP_COMMIT: GroupCommitOptions = { windowMs: 2, maxWrites: 256 };

/** Called once the group it waited for ended: without an error when it committed, with the cause when it did not. */
export type AfterCommit = (failure: unknown) => void;

/**
 * Thrown to the waiters of a group SQLite itself rolled back (after an I/O or
 * disk error in one of its statements), when no request named the cause.
 */
function groupLost(): Error {
  return Object.assign(new Error('The transaction of a group of writes was rolled back after a disk error'), { code: 'SQLITE_IOERR' });
}

interface Group {
  writes: number;
  waiting: AfterCommit[];
  timer: NodeJS.Timeout;
  /** What a request saw go wrong when the transaction vanished under it. */
  cause: unknown;
}

/**
 * Group commit: writes that arrive within a few milliseconds share one
 * transaction (BEGIN IMMEDIATE ... COMMIT) and so one fsync, instead of one
 * fsync each. Every statement run on this connection while a group is open
 * belongs to it, a `db.transaction()` becoming a savepoint that rolls back on
 * its own. Whoever must not answer or act before a write is durable waits with
 * `afterCommit`. One group at a time; SQLite's lock (with `busy_timeout`) keeps
 * other processes' writes out while it is open.
 */
export function createGroupCommit(db: Db, options: GroupCommitOptions = DEFAULT_GROUP_COMMIT) {
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commitStatement = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let open: Group | undefined;
  let failures = 0;
  let lastFailure: unknown;

  const settle = (group: Group, failure: unknown) => {
    open = undefined;
    clearTimeout(group.timer);
    if (failure !== undefined) {
      failures += 1;
      lastFailure = failure;
    }
    // Every waiter runs even if one throws; the first error is raised after them.
    let thrown: { error: unknown } | undefined;
    for (const waiter of group.waiting) {
      try {
        waiter(failure);
      } catch (error) {
        thrown ??= { error };
      }
    }
    if (thrown) throw thrown.error;
  };

  const commit = () => {
    const group = open;
    if (!group) return;
    if (!db.open || !db.inTransaction) {
      settle(group, group.cause ?? groupLost());
      return;
    }
    try {
      commitStatement.run();
    } catch (err) {
      if (db.inTransaction) rollback.run();
      settle(group, err);
      return;
    }
    settle(group, undefined);
  };

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
        begin.run();
        open = { writes: 0, waiting: [], timer: setTimeout(commit, options.windowMs), cause: undefined };
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
      } else if (group.writes >= options.maxWrites) {
        commit();
      }
    },
    /**
     * Runs `then` once the open group ended (with its failure, if it failed)
     * and returns true; returns false, running nothing, when no group is open.
     */
    afterCommit(then: AfterCommit): boolean {
      if (!open) return false;
      open.waiting.push(then);
      return true;
    },
    /** Resolves once no group is open: what is read then has been committed. */
    committed(): Promise<void> {
      return new Promise((resolve) => {
        if (!open) resolve();
        else open.waiting.push(() => resolve());
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
    /** Commits the open group now (before closing the database). */
    flush(): void {
      commit();
    },
  };
}

export type GroupCommit = ReturnType<typeof createGroupCommit>;
