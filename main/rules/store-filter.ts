/** The store lists a product inherits from its category. */
export interface StoreLists {
  allowStore?: readonly string[] | undefined;
  hideStore?: readonly string[] | undefined;
}

/**
 * Whether a product shows in `store`: not when its `hideStore` holds the store,
 * nor when its `allowStore` is non-empty and lacks it.
 */
export function isVisibleInStore(lists: StoreLists, store: string): boolean {
  if (lists.hideStore?.includes(store)) return false;
  if (lists.allowStore && lists.allowStore.length > 0 && !lists.allowStore.includes(store)) return false;
  return true;
}
