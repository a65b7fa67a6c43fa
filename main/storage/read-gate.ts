/** What the gate asks the group commit about the connection it guards. */
export interface GateState {
  /** Whether a read (of the change feed or not) that arrived while `since` was the latest group may run now. */
  readable(since: unknown, changeFeed: boolean): boolean;
  /** The latest group not yet on disk, which a read arriving now waits for at least. */
  latest(): unknown;
  /** Whether a group is open: a write joins it whatever reads wait, as they wait for it anyway. */
  groupOpen(): boolean;
  /** Has the open group commit by `at` (`performance.now()` time) at the latest. */
  closeBy(at: number): void;
}

interface WaitingRead {
  since: unknown;
  changeFeed: boolean;
  read: (done: () => void) => void;
}

interface WaitingWrite {
  /** When the write's group would have closed had it opened one on arrival. */
  closesAt: number;
  write: () => void;
}

/**
 * Keeps reads from seeing writes that are not on disk, on a connection where
 * the next group of writes opens while the previous one is flushed. A read
 * waits until the group it arrived under, and every group that took writes
 * since, is on disk and no group is open; then it runs. While reads wait or
 * run, a write that would open a new group waits instead, and runs right
 * after them: so a read waits for at most the open group and one flush, and
 * a write for at most one flush, and still commits within its own window of
 * its arrival.
 *
 * A read that waited calls `done` once it has read (its answer begun); a read
 * that has not by the end of `graceMs` (one that awaits something else before
 * answering) stops holding writes back.
 */
export class ReadGate {
  private readonly reads: WaitingRead[] = [];
  private readonly writes: WaitingWrite[] = [];
  /** Reads released together and still reading, by batch: a batch past its grace holds nothing back any more. */
  private readonly running = new Map<number, number>();
  private batches = 0;
  private draining = false;

  constructor(
    private readonly state: GateState,
    private readonly graceMs: number,
  ) {}

  /** Queues `read` and returns true, or returns false when it may run at once (then it holds nothing back and needs no `done`). */
  read(changeFeed: boolean, read: (done: () => void) => void): boolean {
    const since = this.state.latest();
    // Not behind reads still waiting: under a held group a lookup runs while a change-feed page waits.
    if (this.state.readable(since, changeFeed)) return false;
    this.reads.push({ since, changeFeed, read });
    return true;
  }

  /** Queues `write` behind the reads that wait or run and returns true, or returns false when it may join a group now. */
  write(windowMs: number, write: () => void): boolean {
    if (this.state.groupOpen() || (this.reads.length === 0 && this.running.size === 0)) return false;
    this.writes.push({ closesAt: performance.now() + windowMs, write });
    return true;
  }

  /** Runs the reads that may run now, then, once none waits or runs, the writes they held back. Call after every change of the groups' state. */
  drain(): void {
    if (this.draining) return;
    this.draining = true;
    let thrown: { error: unknown } | undefined;
    const run = (step: () => void) => {
      try {
        step();
      } catch (error) {
        thrown ??= { error };
      }
    };
    try {
      const ready = this.reads.filter((read) => this.state.readable(read.since, read.changeFeed));
      if (ready.length > 0) {
        this.reads.splice(0, this.reads.length, ...this.reads.filter((read) => !ready.includes(read)));
        const batch = ++this.batches;
        this.running.set(batch, ready.length);
        setTimeout(() => this.finish(batch, Infinity), this.graceMs).unref();
        for (const { read } of ready) {
          let done = false;
          run(() =>
            read(() => {
              if (done) return;
              done = true;
              this.finish(batch, 1);
            }),
          );
        }
      }
      if ((this.reads.length === 0 && this.running.size === 0) || this.state.groupOpen()) {
        const writes = this.writes.splice(0);
        for (const { write } of writes) run(write);
        const closesAt = Math.min(...writes.map((write) => write.closesAt));
        if (writes.length > 0 && this.state.groupOpen()) this.state.closeBy(closesAt);
      }
    } finally {
      this.draining = false;
    }
    if (thrown) throw thrown.error;
  }

  private finish(batch: number, count: number): void {
    const left = this.running.get(batch);
    if (left === undefined) return;
    if (left > count) {
      this.running.set(batch, left - count);
      return;
    }
    this.running.delete(batch);
    if (this.running.size === 0) this.drain();
  }
}
