import type { CursorPosition } from '../rules/cursor.js';
import { isStoredTime } from '../rules/timestamps.js';
import { ValidationFailed } from './errors.js';
import { readCursor } from './paging.js';

/** Reads the cursor of a list ordered by a timestamp, refusing one issued by a list of another order. */
export function readTimeCursor(cursor: string | undefined): CursorPosition | undefined {
  const position = readCursor(cursor);
  if (position && !isStoredTime(position.key)) {
    throw new ValidationFailed({ cursor: ['is not a cursor of this list; pass meta.nextCursor of the previous page unchanged'] });
  }
  return position;
}
