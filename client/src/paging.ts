/** A page of a list endpoint: its items and the cursor to the next page, absent on the last. */
export interface Page<T> {
  data: T[];
  meta: { nextCursor?: string };
}

/**
 * Pages of a list by `meta.nextCursor`, fetched one at a time as the loop asks
 * for them. `fetchPage` gets the cursor to send, `undefined` for the first page.
 */
export async function* followCursor<P extends Page<unknown>>(fetchPage: (cursor: string | undefined) => Promise<P>, first?: string): AsyncGenerator<P, void, undefined> {
  let cursor = first;
  do {
    const page = await fetchPage(cursor);
    yield page;
    cursor = page.meta.nextCursor;
  } while (cursor);
}
