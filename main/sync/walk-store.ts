import { withoutFsync, type Db } from '../storage/database.js';
import type { SyncKind } from './resources.js';
import { immediateTransaction } from '../storage/transactions.js';

/** Where a collection's walk stands: the cursor of the next page and the first page's `completeUntil`. */
export interface WalkPosition {
  nextCursor: string | undefined;
  completeUntil: string | undefined;
  /** Read to its end (and its removals done) in a pull that did not finish. */
  done: boolean;
}

/** One walk of one collection: its name (see `walkName`) and whether it may remove records at its end. */
export interface WalkId {
  kind: SyncKind;
  name: string;
  removes: boolean;
}

/** Ids read back per query when a resumed walk loads what it listed before: one short turn of the event loop each. */
const SEEN_BATCH = 5000;
/** Ids of a finished walk's list deleted per statement: 20,000 at once held the event loop for tens of milliseconds. */
const FORGET_BATCH = 2000;

/** The pull's walks between rounds and across restarts (tables `sync_walks`, `sync_walk_seen`). */
export function createWalkStore(db: Db, orgId: string) {
  const get = db.prepare<[string, string, string], { next_cursor: string | null; complete_until: string | null; done: number }>(
    'SELECT next_cursor, complete_until, done FROM sync_walks WHERE org_id = ? AND kind = ? AND walk = ?',
  );
  const put = db.prepare(
    'INSERT OR REPLACE INTO sync_walks (org_id, kind, walk, removes, next_cursor, complete_until, done) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const forgetWalk = db.prepare('DELETE FROM sync_walks WHERE org_id = ? AND kind = ? AND walk = ?');
  const forgetRemoving = db.prepare('DELETE FROM sync_walks WHERE org_id = ? AND kind = ? AND removes = 1');
  const forgetSeen = db.prepare('DELETE FROM sync_walk_seen WHERE org_id = ? AND kind = ?');
  const forgetSomeSeen = db.prepare(
    'DELETE FROM sync_walk_seen WHERE org_id = ? AND kind = ? AND upstream_id IN (SELECT upstream_id FROM sync_walk_seen WHERE org_id = ? AND kind = ? LIMIT ?)',
  );
  const addSeen = db.prepare('INSERT OR IGNORE INTO sync_walk_seen (org_id, kind, upstream_id) VALUES (?, ?, ?)');
  const seenAfter = db.prepare<[string, string, string, number], { upstream_id: string }>(
    'SELECT upstream_id FROM sync_walk_seen WHERE org_id = ? AND kind = ? AND upstream_id > ? ORDER BY upstream_id LIMIT ?',
  );
  const write = (walk: WalkId, position: WalkPosition) =>
    put.run(orgId, walk.kind, walk.name, walk.removes ? 1 : 0, position.nextCursor ?? null, position.completeUntil ?? null, position.done ? 1 : 0);

  return {
    /**
     * The saved position of this walk, or nothing. A whole walk that starts
     * anew forgets any other whole walk of its collection (another upstream's)
     * and what it had listed: one list of ids per collection.
     */
    resume(walk: WalkId): WalkPosition | undefined {
      const row = get.get(orgId, walk.kind, walk.name);
      if (row) return { nextCursor: row.next_cursor ?? undefined, completeUntil: row.complete_until ?? undefined, done: row.done === 1 };
      if (walk.removes) immediateTransaction(db, () => (forgetRemoving.run(orgId, walk.kind), forgetSeen.run(orgId, walk.kind)));
      return undefined;
    },
    /** Saves where the walk goes on; call in the transaction that applied the page's last rows. */
    save: write,
    addSeen(kind: SyncKind, upstreamId: string): void {
      addSeen.run(orgId, kind, upstreamId);
    },
    /** What a resumed whole walk listed before it was cut off, read in short batches. */
    async seen(kind: SyncKind, yieldToEventLoop: () => Promise<unknown>): Promise<Set<string>> {
      const out = new Set<string>();
      for (let after = ''; ; ) {
        const rows = seenAfter.all(orgId, kind, after, SEEN_BATCH);
        for (const row of rows) out.add(row.upstream_id);
        if (rows.length < SEEN_BATCH) return out;
        after = rows[rows.length - 1]!.upstream_id;
        await yieldToEventLoop();
      }
    },
    /**
     * The walk read to its end: kept as done until its pull finishes. Its list
     * of ids is then forgotten in batches, each without an fsync of its own: a
     * list left by a crash is forgotten when its collection's next whole walk
     * starts (`resume`), and a done walk never reads it.
     */
    async finish(walk: WalkId, completeUntil: string | undefined, yieldToEventLoop: () => Promise<unknown>): Promise<void> {
      write(walk, { nextCursor: undefined, completeUntil, done: true });
      if (!walk.removes) return;
      while (withoutFsync(db, () => forgetSomeSeen.run(orgId, walk.kind, orgId, walk.kind, FORGET_BATCH).changes) === FORGET_BATCH) await yieldToEventLoop();
    },
    /** The pull finished: its walks start anew next time. */
    clear(walks: WalkId[]): void {
      immediateTransaction(db, () => walks.forEach((walk) => forgetWalk.run(orgId, walk.kind, walk.name)));
    },
  };
}

export type WalkStore = ReturnType<typeof createWalkStore>;
