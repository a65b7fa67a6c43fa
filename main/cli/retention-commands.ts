import { systemClock } from '../services/clock.js';
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
];
