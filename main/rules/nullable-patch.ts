/**
 * Applies a partial update in which `null` means "clear": a field sent as
 * `null` is removed, any other value replaces the stored one, and fields not
 * sent stay as they are.
 */
export function applyNullablePatch<T extends object>(current: T, patch: object): T {
  const next = { ...current } as Record<string, unknown>;
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else if (value !== undefined) next[field] = value;
  }
  return next as T;
}
