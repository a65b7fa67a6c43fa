import { readConfig } from '../config.js';
import { systemClock } from '../services/clock.js';
import { createDataRetention } from '../retention/data-retention.js';
import { createPersonalDataRetention } from '../retention/personal-data.js';
import { need, UsageError, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

const days = (value: string | boolean | undefined): number => {
  const text = need(value, '--days <n>');
  if (!/^\d+$/.test(text)) throw new UsageError(`--days takes a whole number of days, not ${JSON.stringify(text)}`);
  return Number(text);
};

export const retentionCommands: CliCommand[] = [
  {
    name: 'retention show',
    usage: '<orgId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const setting = createPersonalDataRetention({ db, clock: systemClock }).show(need(args[0], '<orgId>'));
        return { json: setting, text: `${setting.id}: identity logs keep personal data for ${setting.retentionDays} days` };
      }),
  },
  {
    name: 'retention set',
    usage: '<orgId> --days <n>',
    options: { days: { type: 'string' } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const setting = createPersonalDataRetention({ db, clock: systemClock }).set(need(args[0], '<orgId>'), days(values.days));
        return { json: setting, text: `${setting.id}: identity logs keep personal data for ${setting.retentionDays} days` };
      }),
  },
  {
    name: 'retention purge',
    usage: '[<orgId>]',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (_services, db) => {
        const purged = createPersonalDataRetention({ db, clock: systemClock }).purge(args[0]);
        return { json: { purged }, text: `Erased the personal data of ${purged} identity log${purged === 1 ? '' : 's'}.` };
      }),
  },
  {
    name: 'purge run',
    usage: '',
    run: ({ dataDir }) =>
      withServices(dataDir, async (_services, db) => {
        // The same settings as the server's: OUTBOX_RETENTION_DAYS, DELETED_RETENTION_DAYS, SYNCED_ORDER_RETENTION_DAYS.
        const report = await createDataRetention({ db, clock: systemClock, settings: readConfig().retention }).purge();
        return {
          json: report,
          text:
            `Deleted ${report.outbox} pushed outbox entries, ${report.answers} kept answers, ${report.deleted} soft-deleted records, ` +
            `${report.orders} orders and ${report.mail} sent or failed mails, in ${report.batches} batches.`,
        };
      }),
  },
];
