import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { immediateTransaction } from '../storage/transactions.js';

/** How long one slice of a large write holds the server's thread: a scanner's lookup waits at most about this long for it. */
const SLICE_MS = 4;

/**
 * Runs `steps` (a write that yields between small steps) in one transaction
 * and returns what it returns. On the server it runs a few milliseconds per
 * turn of the event loop inside a held group of writes, so that lookups are
 * answered meanwhile; the group commits (or rolls back) whole, and this
 * resolves once it is on disk. Without groups (the CLI), in one go.
 */
export async function runInSlices<T>(db: Db, groups: Pick<GroupCommit, 'hold' | 'afterCommit'> | undefined, steps: () => Generator<void, T>): Promise<T> {
  if (!groups) return immediateTransaction(db, () => {
    const run = steps();
    for (;;) {
      const step = run.next();
      if (step.done) return step.value;
    }
  });
  const held = groups.hold();
  let result: T;
  try {
    const run = steps();
    for (;;) {
      if (!held.intact()) throw new Error('The write was cut off (the server is stopping, or a disk error rolled it back); nothing was written');
      const ends = performance.now() + SLICE_MS;
      let step = run.next();
      while (!step.done && performance.now() < ends) step = run.next();
      if (step.done) {
        result = step.value;
        break;
      }
      held.flushAhead();
      await nextTurn();
    }
  } catch (err) {
    held.fail(err);
    throw err;
  } finally {
    held.release();
  }
  await new Promise<void>((resolve, reject) => {
    if (!groups.afterCommit((failure) => (failure === undefined ? resolve() : reject(failure as Error)))) resolve();
  });
  return result;
}
