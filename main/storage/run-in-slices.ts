import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Db } from './database.js';
import type { GroupCommit } from './group-commit.js';
import { immediateTransaction } from './transactions.js';

/** How long one slice of a large write holds the server's thread: a scanner's lookup waits at most about this long for it. */
const SLICE_MS = 4;

/**
 * What a large write's steps yield between steps: nothing, or `'commit'`
 * where what it has written so far may be committed on its own (a write in
 * parts keeps each commit short; it must then be able to undo its earlier
 * parts itself).
 */
export type SliceStep = void | 'commit';

type Groups = Pick<GroupCommit, 'hold' | 'afterCommit'>;

/** Resolves once the held group just released is on disk. */
function committed(groups: Groups): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (!groups.afterCommit((failure) => (failure === undefined ? resolve() : reject(failure as Error)))) resolve();
  });
}

/** Runs `run` in one held group until it is done or offers a commit, and returns the step it stopped at once the group is on disk. */
async function runHeld<T>(groups: Groups, run: Generator<SliceStep, T>): Promise<IteratorResult<SliceStep, T>> {
  const held = groups.hold();
  let step: IteratorResult<SliceStep, T>;
  try {
    for (;;) {
      if (!held.intact()) throw new Error('The write was cut off (the server is stopping, or a disk error rolled it back); nothing of it was written');
      const ends = performance.now() + SLICE_MS;
      step = run.next();
      while (!step.done && step.value !== 'commit' && performance.now() < ends) step = run.next();
      if (step.done || step.value === 'commit') break;
      held.flushAhead();
      await nextTurn();
    }
  } catch (err) {
    held.fail(err);
    throw err;
  } finally {
    held.release();
  }
  await committed(groups);
  return step;
}

/**
 * Runs `steps` (a write that yields between small steps) and returns what it
 * returns. On the server it runs a few milliseconds per turn of the event
 * loop inside a held group of writes, so that lookups are answered
 * meanwhile; the group commits (or rolls back) whole, and this resolves once
 * it is on disk. A `'commit'` step ends one group there and starts the next.
 * Without groups (the CLI), in one transaction in one go.
 */
export async function runInSlices<T>(db: Db, groups: Groups | undefined, steps: () => Generator<SliceStep, T>): Promise<T> {
  if (!groups) return immediateTransaction(db, () => {
    const run = steps();
    for (;;) {
      const step = run.next();
      if (step.done) return step.value;
    }
  });
  const run = steps();
  for (;;) {
    const step = await runHeld(groups, run);
    if (step.done) return step.value;
  }
}
