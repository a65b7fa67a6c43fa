/**
 * A page's `LIMIT` bound from a JS number, which better-sqlite3 binds as a
 * REAL. A bare bound `LIMIT ?` measured 30 to 50 µs per run of a small page,
 * the cast about 1 µs: on an upstream that was most of what a store PC's pull
 * of an unchanged collection cost in SQLite.
 */
export const pageLimit = (parameter: string): string => `CAST(${parameter} AS INTEGER)`;
