import { join } from 'node:path';
import type { Clock } from '../services/clock.js';
import { DATABASE_FILE, type Db } from '../storage/database.js';
import { createInstallationStore, type Installation, type RenewalReason } from '../storage/installation.js';
import { folderIdentity, readMarker, sameIdentity, writeMarker } from './folder-marker.js';

/**
 * Why the installation id must be renewed, if it must: the marker is missing
 * or names another installation or another file (a copied folder), or the
 * outbox went back below what this installation had handed out (the database
 * was replaced by an older copy). A renewal is always safe (queued entries
 * keep their keys), so any doubt renews.
 */
function renewalReason(dataDir: string, installation: Installation, highestSeq: number): RenewalReason | undefined {
  const marker = readMarker(dataDir);
  if (!marker || marker.installation !== installation.id) return 'copied-folder';
  if (!sameIdentity(marker, folderIdentity(join(dataDir, DATABASE_FILE)))) return 'copied-folder';
  if (highestSeq < marker.outboxSeq) return 'rolled-back';
  return undefined;
}

/** Writes the marker for the database as it is now. */
export function markInstallation(dataDir: string, db: Db): void {
  const store = createInstallationStore(db);
  writeMarker(dataDir, { installation: store.get().id, ...folderIdentity(join(dataDir, DATABASE_FILE)), outboxSeq: store.highestOutboxSeq() });
}

/**
 * At start: renews the installation id when the data folder is a copy, then
 * marks the folder as this installation's. Returns the id in use and why it
 * was renewed, if it was.
 */
export function checkInstallation(dataDir: string, db: Db, clock: Clock): { installation: Installation; renewed: RenewalReason | undefined } {
  const store = createInstallationStore(db);
  let installation = store.get();
  const renewed = renewalReason(dataDir, installation, store.highestOutboxSeq());
  if (renewed) installation = store.renew(renewed, clock.now());
  markInstallation(dataDir, db);
  return { installation, renewed };
}

/** After a restore: a new id, so nothing sent from now on reuses a key the original installation sent. */
export function renewAfterRestore(dataDir: string, db: Db, clock: Clock): Installation {
  const installation = createInstallationStore(db).renew('restore', clock.now());
  markInstallation(dataDir, db);
  return installation;
}
