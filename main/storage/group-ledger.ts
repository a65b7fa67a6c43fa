/** Called once the group it waited for ended: without an error when it committed, with the cause when it did not. */
export type AfterCommit = (failure: unknown) => void;

export interface Group {
  writes: number;
  waiting: AfterCommit[];
  timer: NodeJS.Timeout | undefined;
  /** When its window ends (`performance.now()` time), unless it fills up first. */
  closesAt: number;
  /** What a request saw go wrong when the transaction vanished under it. */
  cause: unknown;
  settled: boolean;
  /** Its window ended while the previous group's flush (or a checkpoint's) ran: it commits when that flush ends. */
  due: boolean;
}

/** Whether a group took writes of requests; one that did not stands for a commit outside groups (`withoutFsync`). */
export const tookWrites = (group: Group): boolean => group.writes > 0;

export const newGroup = (): Group => ({ writes: 0, waiting: [], timer: undefined, closesAt: 0, cause: undefined, settled: false, due: false });

/**
 * The groups' state: the one open (taking writes), those committed whose
 * flush has not started, and those being flushed; and the settle, which
 * tells a group's waiters how it ended. A group is settled once, and only
 * after a flush that started after its COMMIT ended (or with its failure).
 */
export class GroupLedger {
  open: Group | undefined;
  /** Committed groups whose flush has not started. */
  unflushed: Group[] = [];
  /** Committed groups whose flush is under way. */
  flushing: Group[] = [];
  /** How many groups failed so far. */
  failures = 0;
  lastFailure: unknown;

  /** The latest group not settled yet: a waiter added to it runs after every earlier write is durable. */
  latest(): Group | undefined {
    return this.open ?? this.unflushed.at(-1) ?? this.flushing.at(-1);
  }

  /** The committed groups a flush starting now makes durable. */
  startFlush(): Group[] {
    const batch = this.unflushed;
    this.unflushed = [];
    this.flushing = batch;
    return batch;
  }

  endFlush(batch: Group[]): void {
    if (this.flushing === batch) this.flushing = [];
  }

  /** Every committed group not settled yet, taken out of the ledger. */
  takeCommitted(): Group[] {
    const all = [...this.flushing, ...this.unflushed];
    this.flushing = [];
    this.unflushed = [];
    return all;
  }

  /** Ends groups (those not ended yet): every waiter runs even if one throws; the first error is raised after them. */
  settle(groups: Group[], failure: unknown): void {
    const waiters: AfterCommit[] = [];
    for (const group of groups) {
      if (group.settled) continue;
      group.settled = true;
      waiters.push(...group.waiting);
      if (failure !== undefined) {
        this.failures += 1;
        this.lastFailure = failure;
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
  }
}
