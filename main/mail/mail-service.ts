import type { z } from 'zod';
import type { MailSettingsSchema } from '../../shared/api/mail.js';
import type { Clock } from '../services/clock.js';
import type { Db } from '../storage/database.js';
import { queueDailySales, type DailySalesSources } from './daily-sales-mails.js';
import { listMails, queueTestMail } from './mail-list.js';
import type { MailSender } from './mail-sender.js';
import type { MailServers } from './mail-servers.js';

/** The mail queue as staff see it: its list, a test mail, the organization's mail server. */
export function createMailService(deps: { db: Db; clock: Clock; servers: MailServers; sender: MailSender; daily: DailySalesSources }) {
  return {
    list: (orgId: string, query: { limit: number; cursor?: string | undefined }) => listMails(deps.db, orgId, query),
    sendTest: (orgId: string, to: string) => queueTestMail(deps.db, orgId, to, deps.clock.now()),
    /** `POST /mail/daily`: the day's supplier mails not queued before. */
    queueDaily: (orgId: string, date: string) => ({ queued: queueDailySales(deps.daily, orgId, date, deps.clock.now()) }),
    setSettings(orgId: string, settings: z.infer<typeof MailSettingsSchema>): void {
      deps.servers.set(orgId, settings, deps.clock.now());
      deps.sender.settingsChanged();
    },
  };
}

export type MailService = ReturnType<typeof createMailService>;
