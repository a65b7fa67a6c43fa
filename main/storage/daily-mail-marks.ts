import type { Db } from './database.js';

/** The last day whose suppliers' sales mails each organization queued on schedule. */
export function createDailyMailMarkStore(db: Db) {
  const get = db.prepare<[string], string>('SELECT last_day FROM daily_mail_marks WHERE org_id = ?').pluck();
  const set = db.prepare<[string, string]>(
    'INSERT INTO daily_mail_marks (org_id, last_day) VALUES (?, ?) ON CONFLICT (org_id) DO UPDATE SET last_day = excluded.last_day',
  );
  return {
    get: (orgId: string): string | undefined => get.get(orgId),
    set: (orgId: string, day: string): void => void set.run(orgId, day),
  };
}
