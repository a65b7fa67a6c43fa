import { join } from 'node:path';
import { systemClock } from '../services/clock.js';
import { createServices, type Services } from '../services/index.js';
import { DATABASE_FILE, openDatabase, type Db } from '../storage/database.js';

/** Opens the data folder's database for one command and closes it afterwards. */
export async function withServices<T>(dataDir: string, use: (services: Services, db: Db) => T | Promise<T>): Promise<T> {
  const db = openDatabase(join(dataDir, DATABASE_FILE));
  try {
    return await use(createServices({ db, clock: systemClock }), db);
  } finally {
    db.close();
  }
}
