import type { RankedList } from '../rules/search-page.js';

/**
 * Hits with what decides their rank, by position: the group first (lower
 * first), then the score (higher first), then the key (lower first).
 */
export interface Ranked<T> {
  items: T[];
  groups: Uint8Array;
  scores: Float64Array;
  keys: Float64Array;
}

/** Fewest hits put in order at a time. */
const MIN_SORTED = 128;

/**
 * Hits in rank order, put in order only as far as they are read. A search
 * for a few letters matches thousands of products but serves a page of a
 * hundred: selecting the first ranks and sorting those costs a fraction of
 * sorting them all. Reading further sorts the next ranks, twice as many each
 * time.
 */
export class RankedHits<T> implements RankedList<T> {
  /** Leading hits, ranked before all others in the order given (exact code matches). */
  private readonly leading: readonly T[];
  private readonly items: T[];
  private readonly groups: Uint8Array;
  private readonly scores: Float64Array;
  private readonly keys: Float64Array;
  /** Positions in `items` by rank; the first `sorted` of them are final. */
  private readonly order: Int32Array;
  private sorted = 0;

  constructor(leading: readonly T[], ranked: Ranked<T>) {
    this.leading = leading;
    ({ items: this.items, groups: this.groups, scores: this.scores, keys: this.keys } = ranked);
    this.order = new Int32Array(this.items.length);
    for (let i = 0; i < this.order.length; i++) this.order[i] = i;
  }

  get length(): number {
    return this.leading.length + this.items.length;
  }

  /** The hits ranked `start` up to `end` (exclusive), as `Array.prototype.slice` takes them. */
  slice(start = 0, end = this.length): T[] {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    const out: T[] = [];
    for (let rank = from; rank < to; rank++) out.push(this.at(rank));
    return out;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let rank = 0; rank < this.length; rank++) yield this.at(rank);
  }

  private at(rank: number): T {
    if (rank < this.leading.length) return this.leading[rank] as T;
    const position = rank - this.leading.length;
    if (position >= this.sorted) this.sortThrough(position + 1);
    return this.items[this.order[position] as number] as T;
  }

  private readonly before = (a: number, b: number): boolean => {
    const { groups, scores, keys } = this;
    if (groups[a] !== groups[b]) return (groups[a] as number) < (groups[b] as number);
    if (scores[a] !== scores[b]) return (scores[a] as number) > (scores[b] as number);
    return (keys[a] as number) < (keys[b] as number);
  };

  /** Puts at least the first `count` positions in their final order. */
  private sortThrough(count: number): void {
    const end = Math.min(this.order.length, Math.max(count, this.sorted * 2, MIN_SORTED));
    selectFirst(this.order, this.sorted, this.order.length, end, this.before);
    this.order.subarray(this.sorted, end).sort((a, b) => (this.before(a, b) ? -1 : 1));
    this.sorted = end;
  }
}

/**
 * Rearranges `order[lo, hi)` so that its positions `[lo, k)` hold the
 * entries ranked first, in no particular order (quickselect). `before` must
 * be a strict total order.
 */
function selectFirst(order: Int32Array, lo: number, hi: number, k: number, before: (a: number, b: number) => boolean): void {
  const swap = (i: number, j: number) => {
    const held = order[i] as number;
    order[i] = order[j] as number;
    order[j] = held;
  };
  while (lo < k && k < hi) {
    // Median of three as pivot, moved to the end: postings arrive in document order, often already sorted by some field.
    const mid = lo + ((hi - lo) >> 1);
    const last = hi - 1;
    if (before(order[mid] as number, order[lo] as number)) swap(mid, lo);
    if (before(order[last] as number, order[lo] as number)) swap(last, lo);
    if (before(order[mid] as number, order[last] as number)) swap(mid, last);
    const pivot = order[last] as number;
    let store = lo;
    for (let i = lo; i < last; i++) {
      if (before(order[i] as number, pivot)) swap(i, store++);
    }
    swap(store, last);
    if (k === store || k === store + 1) return;
    if (k < store) hi = store;
    else lo = store + 1;
  }
}
