import type { Clock } from '../services/clock.js';
import { BadRequest, NotFound } from '../services/errors.js';
import type { Db } from '../storage/database.js';
import { createRetentionStore } from '../storage/retention.js';

/** Retention period of a new organization, in days. */
export const DEFAULT_RETENTION_DAYS = 90;
const MAX_RETENTION_DAYS = 36_500;
const DAY_MS = 86_400_000;

export interface RetentionSetting {
  id: string;
  retentionDays: number;
}

/**
 * Identity logs keep the date of birth, the raw scan and the ID image address
 * only for the organization's retention period (by `logDate`); after it those
 * fields are erased, the record of the check itself (access, source, store,
 * time) stays.
 */
export function createPersonalDataRetention(deps: { db: Db; clock: Clock }) {
  const store = createRetentionStore(deps.db);

  const mustGet = (orgId: string): number => {
    const days = store.days(orgId);
    if (days === undefined) throw new NotFound('Organization', orgId);
    return days;
  };

  return {
    show(orgId: string): RetentionSetting {
      return { id: orgId, retentionDays: mustGet(orgId) };
    },

    set(orgId: string, days: number): RetentionSetting {
      if (!Number.isInteger(days) || days < 1 || days > MAX_RETENTION_DAYS) {
        throw new BadRequest(`Retention must be a whole number of days from 1 to ${MAX_RETENTION_DAYS}, not ${JSON.stringify(days)}`);
      }
      if (!store.setDays(orgId, days)) throw new NotFound('Organization', orgId);
      return { id: orgId, retentionDays: days };
    },

    /** Erases what is past its retention, for one organization or all; returns how many logs were purged. */
    purge(orgId?: string): number {
      const now = deps.clock.now().getTime();
      const targets = orgId === undefined ? store.organizations() : [{ id: orgId, days: mustGet(orgId) }];
      let purged = 0;
      for (const org of targets) purged += store.purge(org.id, new Date(now - org.days * DAY_MS).toISOString());
      return purged;
    },
  };
}

export type PersonalDataRetention = ReturnType<typeof createPersonalDataRetention>;
