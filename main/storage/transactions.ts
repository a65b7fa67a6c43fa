import type { Db } from './database.js';

type Runner = (work: () => unknown) => unknown;
const immediateRunners = new WeakMap<Db, Runner>();

/**
 * `db.transaction(work).immediate()` with one transaction function per
 * connection: better-sqlite3 builds four wrappers and defines their
 * properties on every `db.transaction()`, which a sale pushed to a hub paid
 * twice (its answer's commit and its own). Nested in an open transaction it
 * is a savepoint, as there.
 */
export function immediateTransaction<T>(db: Db, work: () => T): T {
  let run = immediateRunners.get(db);
  if (!run) {
    run = db.transaction((inside: () => unknown) => inside()).immediate as Runner;
    immediateRunners.set(db, run);
  }
  return run(work) as T;
}
