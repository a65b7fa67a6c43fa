/** Hits in rank order: an array, or anything read like one from the front. */
export interface RankedList<T> extends Iterable<T> {
  readonly length: number;
  slice(start: number, end: number): T[];
}

/**
 * The page `offset .. offset + limit` of ranked search hits. With a
 * visibility test (the store filter), the offset counts visible hits only, so
 * consecutive pages of one store neither skip nor repeat a product.
 */
export function pageOfHits<T>(hits: RankedList<T>, page: { offset: number; limit: number; visible?: ((hit: T) => boolean) | undefined }): T[] {
  const { offset, limit, visible } = page;
  if (!visible) return hits.slice(offset, offset + limit);
  const out: T[] = [];
  let skipped = 0;
  for (const hit of hits) {
    if (out.length === limit) break;
    if (!visible(hit)) continue;
    if (skipped < offset) skipped += 1;
    else out.push(hit);
  }
  return out;
}
