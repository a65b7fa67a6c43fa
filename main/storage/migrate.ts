import type Database from 'better-sqlite3';
import { VERSION } from '../version.js';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import { immediateTransaction } from './transactions.js';

/**
 * The database was last opened by a newer release: it holds migrations this
 * release does not know, and whatever they changed this code would misread.
 */
export class DatabaseFromNewerRelease extends Error {
  constructor(
    readonly file: string,
    readonly databaseVersion: number,
    readonly knownVersion: number,
  ) {
    super(
      `${file} was written by a newer release of Store Server (database version ${databaseVersion}); ` +
        `this release (${VERSION}) knows database versions up to ${knownVersion}. Nothing was changed. ` +
        `Install the newer release again, or restore a backup of the data folder made with this release.`,
    );
  }
}

/** Highest migration recorded in the database, 0 for a new one; reads only, so a refused database stays untouched. */
function recordedVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return 0;
  return (db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null) ?? 0;
}

/**
 * Applies every migration the database has not seen yet, in order, each in its
 * own transaction. Migrations only add: a store PC on an older version must
 * keep syncing with the same upstream, and a database of any earlier release
 * opens with today's code. A database of a newer release is refused before
 * anything is written (there is no way back down).
 */
export function applyMigrations(db: Database.Database, migrations: readonly Migration[] = allMigrations): void {
  const known = migrations.at(-1)?.version ?? 0;
  const recorded = recordedVersion(db);
  if (recorded > known) throw new DatabaseFromNewerRelease(db.name, recorded, known);
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    immediateTransaction(db, () => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    });
  }
}
