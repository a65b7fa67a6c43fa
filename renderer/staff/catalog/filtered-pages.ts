/** One page of a list endpoint as it comes: its items and where the next page starts, if there is one. */
export interface SourcePage<T> {
  items: T[];
  next?: string | undefined;
}

/** Reads the page at a position (`undefined`: the first page). */
export type PageSource<T> = (position: string | undefined) => Promise<SourcePage<T>>;

/** Where a page of the filtered list starts: a source page, and how many of its items came before. */
interface Mark {
  position: string | undefined;
  skip: number;
}

export interface FilteredPage<T> {
  items: T[];
  /** 1 for the first page. */
  number: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/**
 * Pages of `size` items that pass `keep`, read from a source that pages on the
 * server (a cursor or a search offset) and knows nothing of the filter. Each
 * page starts where the one before it stopped, inside a source page if need
 * be, so filtering never skips or repeats an item however few pass; going back
 * reads a remembered start again.
 */
export function createFilteredPages<T>(source: PageSource<T>, keep: (item: T) => boolean, size: number) {
  const starts: Mark[] = [{ position: undefined, skip: 0 }];
  let index = 0;
  let next: Mark | undefined;

  async function read(mark: Mark): Promise<{ items: T[]; next: Mark | undefined }> {
    const items: T[] = [];
    let position = mark.position;
    let skip = mark.skip;
    for (;;) {
      const page = await source(position);
      for (let i = skip; i < page.items.length; i += 1) {
        const item = page.items[i] as T;
        if (!keep(item)) continue;
        items.push(item);
        if (items.length === size) {
          const rest = i + 1 < page.items.length ? { position, skip: i + 1 } : page.next !== undefined ? { position: page.next, skip: 0 } : undefined;
          return { items, next: rest };
        }
      }
      if (page.next === undefined) return { items, next: undefined };
      position = page.next;
      skip = 0;
    }
  }

  async function show(at: number): Promise<FilteredPage<T>> {
    const page = await read(starts[at] as Mark);
    index = at;
    next = page.next;
    return { items: page.items, number: at + 1, hasPrevious: at > 0, hasNext: next !== undefined };
  }

  return {
    first: () => show(0),
    /** The page after the one last shown. */
    next: async () => {
      if (!next) return show(index);
      starts[index + 1] = next;
      return show(index + 1);
    },
    previous: () => show(Math.max(0, index - 1)),
    /** The page last shown, read again (after an edit). */
    current: () => show(index),
  };
}

export type FilteredPages<T> = ReturnType<typeof createFilteredPages<T>>;
