import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Catalog, CatalogSize } from './catalog.js';

/** What the soak's callers hold: a write key, and the device keys of the store's kiosks and scale. */
export interface SoakCatalog {
  catalog: Catalog;
  writeKey: string;
  kiosks: { key: string; store: string }[];
  scaleKey: string;
}

/** The few parts of a checkout the seeding calls; the same in every checkout the soak measures. */
interface Checkout {
  database: { DATABASE_FILE: string; openDatabase(file: string): { close(): void } };
  services: {
    createServices(deps: { db: unknown; clock: unknown }): {
      organizations: {
        create(input: { name: string; features?: readonly string[] }): { id: string; writeKey: string };
        createKey(orgId: string, input: { kind: string; store?: string }): { key: string };
      };
    };
  };
  clock: { systemClock: unknown };
  generator: { generateCatalog(db: unknown, orgId: string, size: CatalogSize): Catalog };
}

const load = (root: string, path: string) => import(pathToFileURL(join(root, path)).href);

/**
 * Writes the catalog with the measured checkout's own storage code, so that
 * its database carries exactly the migrations that checkout's server expects:
 * a server refuses a database written by a newer release.
 */
export async function seedCatalog(root: string, dataDir: string, size: CatalogSize, kioskCount: number): Promise<SoakCatalog> {
  const checkout: Checkout = {
    database: await load(root, 'main/storage/database.ts'),
    services: await load(root, 'main/services/index.ts'),
    clock: await load(root, 'main/services/clock.ts'),
    generator: await load(root, 'test/bench/catalog.ts'),
  };
  const db = checkout.database.openDatabase(join(dataDir, checkout.database.DATABASE_FILE));
  try {
    const { organizations } = checkout.services.createServices({ db, clock: checkout.clock.systemClock });
    const org = organizations.create({ name: 'Soak', features: ['barcode-aliases'] });
    const catalog = checkout.generator.generateCatalog(db, org.id, size);
    const kiosks = catalog.storeIds.slice(0, kioskCount).map((store) => ({ store, key: organizations.createKey(org.id, { kind: 'kiosk', store }).key }));
    const scaleKey = organizations.createKey(org.id, { kind: 'scale' }).key;
    return { catalog, writeKey: org.writeKey, kiosks, scaleKey };
  } finally {
    db.close();
  }
}
