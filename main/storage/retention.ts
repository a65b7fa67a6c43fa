import type { Db } from './database.js';
import { immediateTransaction } from './transactions.js';

/** The personal fields of an identity log, as columns and as names in an outbox body. */
const PERSONAL_COLUMNS = ['birth_date', 'raw_text', 'image_url'] as const;
const PERSONAL_FIELDS = ['birthDate', 'rawText', 'imageUrl'] as const;

export function createRetentionStore(db: Db) {
  const getDays = db.prepare<[string], number>('SELECT identity_log_retention_days FROM organizations WHERE id = ?').pluck();
  const setDays = db.prepare('UPDATE organizations SET identity_log_retention_days = ? WHERE id = ?');
  const all = db.prepare<[], { id: string; days: number }>('SELECT id, identity_log_retention_days AS days FROM organizations ORDER BY id');
  // A log whose creation has not reached the upstream yet keeps everything
  // while sync is configured: the upstream must receive the check as it was made.
  const erase = db.prepare<{ orgId: string; cutoff: string }, { id: string }>(`
    UPDATE identity_logs SET ${PERSONAL_COLUMNS.map((c) => `${c} = NULL`).join(', ')}
    WHERE org_id = @orgId AND log_date < @cutoff
      AND (${PERSONAL_COLUMNS.map((c) => `${c} IS NOT NULL`).join(' OR ')})
      AND NOT (
        EXISTS (SELECT 1 FROM sync_config WHERE org_id = @orgId)
        AND EXISTS (SELECT 1 FROM outbox o WHERE o.resource = 'identity-log' AND o.resource_id = identity_logs.id
                    AND o.state IN ('pending', 'parked'))
      )
    RETURNING id`);
  const scrub = db.prepare<[string]>(`
    UPDATE outbox SET body = json_remove(body, ${PERSONAL_FIELDS.map((f) => `'$.${f}'`).join(', ')})
    WHERE resource = 'identity-log' AND resource_id = ?
      AND (${PERSONAL_FIELDS.map((f) => `json_type(body, '$.${f}') IS NOT NULL`).join(' OR ')})`);

  return {
    /** Days an organization keeps personal data of identity logs, or undefined for an unknown organization. */
    days(orgId: string): number | undefined {
      return getDays.get(orgId);
    },
    /** Returns false when there is no such organization. */
    setDays(orgId: string, days: number): boolean {
      return setDays.run(days, orgId).changes > 0;
    },
    organizations(): { id: string; days: number }[] {
      return all.all();
    },
    /**
     * Erases the personal fields of the organization's logs made before
     * `cutoff`, also from their outbox entries, in one transaction.
     * @returns how many logs lost personal data
     */
    purge(orgId: string, cutoff: string): number {
      return immediateTransaction(db, () => {
        const purged = erase.all({ orgId, cutoff });
        for (const { id } of purged) scrub.run(id);
        return purged.length;
      });
    },
  };
}

export type RetentionStore = ReturnType<typeof createRetentionStore>;
