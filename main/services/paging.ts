import type { ListMeta } from '../../shared/api/common.js';
import { decodeCursor, encodeCursor, type CursorPosition } from '../rules/cursor.js';
import { ValidationFailed } from './errors.js';

/** Decodes a client's `cursor` query parameter, refusing anything this server did not issue. */
export function readCursor(cursor: string | undefined): CursorPosition | undefined {
  if (cursor === undefined) return undefined;
  const position = decodeCursor(cursor);
  if (!position) {
    throw new ValidationFailed({ cursor: ['is not a cursor from this server; pass meta.nextCursor of the previous page unchanged'] });
  }
  return position;
}

/**
 * Turns `limit + 1` fetched rows into a page: the extra row only tells that
 * more exist, so `nextCursor` is present exactly when another page has rows.
 */
export function toPage<T>(rows: T[], limit: number, positionOf: (row: T) => CursorPosition): { data: T[]; meta: ListMeta } {
  const data = rows.length > limit ? rows.slice(0, limit) : rows;
  const meta: ListMeta = { total: data.length, returned: data.length, limit };
  const last = data[data.length - 1];
  if (rows.length > limit && last !== undefined) meta.nextCursor = encodeCursor(positionOf(last));
  return { data, meta };
}
