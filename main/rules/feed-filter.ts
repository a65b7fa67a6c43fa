import { isVisibleInStore, type StoreLists } from './store-filter.js';

/** The filters a product feed may be read with. */
export interface FeedFilter {
  store?: string | undefined;
  showOnScale?: boolean | undefined;
  showOnScreen?: boolean | undefined;
}

/** Whether a product is one of those a feed's filters ask for; a changed one that is not is a removal in that feed. */
export function inFeedFilter(p: StoreLists & { showOnScale?: boolean | undefined; showOnScreen?: boolean | undefined }, filter: FeedFilter): boolean {
  if (filter.showOnScale !== undefined && (p.showOnScale === true) !== filter.showOnScale) return false;
  if (filter.showOnScreen !== undefined && (p.showOnScreen === true) !== filter.showOnScreen) return false;
  return filter.store === undefined || isVisibleInStore(p, filter.store);
}
