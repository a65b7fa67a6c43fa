import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** A key's current window: when it started (ms since the epoch) and how many requests it counted. */
export interface RateWindow {
  startsAt: number;
  count: number;
}

/** Counts requests per key and kind in windows of a fixed length, in the database, so that a restart forgets nothing. */
export interface RateWindowStore {
  /** Counts one request of `keyId` at `now`: in its window, or in a new one when the last ended. Returns the window after counting. */
  count(keyId: string, what: string, now: number, windowMs: number): RateWindow;
}

export function createRateWindowStore(db: Db): RateWindowStore {
  const forgetEnded = db.prepare<[string, number]>('DELETE FROM rate_windows WHERE what = ? AND starts_at <= ?');
  const count = db.prepare<[{ keyId: string; what: string; now: number; windowMs: number }], { starts_at: number; count: number }>(`
    INSERT INTO rate_windows (key_id, what, starts_at, count) VALUES (@keyId, @what, @now, 1)
    ON CONFLICT (key_id, what) DO UPDATE SET
      count = CASE WHEN excluded.starts_at - starts_at >= @windowMs THEN 1 ELSE count + 1 END,
      starts_at = CASE WHEN excluded.starts_at - starts_at >= @windowMs THEN excluded.starts_at ELSE starts_at END
    RETURNING starts_at, count`);
  return {
    count(keyId, what, now, windowMs) {
      return immediateTransaction(db, () => {
        // Windows of other keys that ended stay no longer than one window: the table holds the keys in use.
        forgetEnded.run(what, now - windowMs * 2);
        const row = count.get({ keyId, what, now, windowMs })!;
        return { startsAt: row.starts_at, count: row.count };
      });
    },
  };
}
