/**
 * Keyset cursors: an opaque string that carries the sort key and id of the last
 * row of a page. Clients pass it back unchanged; nothing else may be assumed.
 */
export interface CursorPosition {
  /** Sort key of the last row served (the id itself for id-ordered lists). */
  key: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.id]), 'utf8').toString('base64url');
}

/** Returns undefined for anything that is not a cursor this server issued. */
export function decodeCursor(cursor: string): CursorPosition | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { key: value[0], id: value[1] };
    }
  } catch {
    return undefined;
  }
  return undefined;
}
