import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { systemClock } from '../services/clock.js';
import { createServices } from '../services/index.js';
import { DATABASE_FILE, openDatabase } from '../storage/database.js';

/** The name the kiosk key gets, so that staff recognize it in `key list` and GET /keys. */
export const kioskKeyName = () => `Desktop kiosk on ${hostname()}`.slice(0, 80);

/**
 * A kiosk.json that holds a write key (installations before kiosk keys, or an
 * operator's copy of credentials.json) gets a kiosk key for its store instead,
 * made here in the app through the organization's services: the kiosk keeps
 * selling, and the key on the shop floor can no longer change the catalog.
 * The write key itself stays valid (the back office may use it); it only
 * leaves the kiosk. Any other key, or a write key that cannot be exchanged
 * (the store is not the organization's), is kept as it is, with a warning.
 */
export function exchangeWriteKey(dataDir: string, logger: Logger) {
  return (key: string, storeId: string): string | undefined => {
    const db = openDatabase(join(dataDir, DATABASE_FILE));
    try {
      const { organizations } = createServices({ db, clock: systemClock });
      const grant = organizations.authenticate(key);
      if (grant?.kind !== 'write') return undefined;
      try {
        const created = organizations.createKey(grant.orgId, { kind: 'kiosk', store: storeId, name: kioskKeyName() });
        logger.info({ organization: grant.orgId, store: storeId, keyId: created.id }, 'kiosk.json held a write key: it now holds a kiosk key for its store, and the write key is no longer kept on this kiosk');
        return created.key;
      } catch (err) {
        logger.warn({ organization: grant.orgId, store: storeId, reason: (err as Error).message }, 'kiosk.json holds a write key that could not be exchanged for a kiosk key; the kiosk keeps the write key until kiosk.json names a store of its organization');
        return undefined;
      }
    } finally {
      db.close();
    }
  };
}
