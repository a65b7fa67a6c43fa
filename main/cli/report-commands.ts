import { DailyReportQuerySchema } from '../../shared/api/reports.js';
import { DEFAULT_TIME_ZONE, localDate } from '../../shared/time-zones.js';
import { BadRequest } from '../services/errors.js';
import { need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';
import { reportCsv, reportTable } from './report-format.js';

export const reportCommands: CliCommand[] = [
  {
    name: 'report daily',
    usage: '--store <storeId> [--date <YYYY-MM-DD>, default today in the store\'s time zone] [--csv]',
    options: { store: { type: 'string' }, date: { type: 'string' }, csv: { type: 'boolean', default: false } },
    run: ({ values, dataDir }) =>
      withServices(dataDir, (services) => {
        const storeId = need(values.store, '--store <storeId>');
        // Store ids are unique across organizations: the store names its organization.
        const orgId = services.stores.retailStores.orgOf(storeId);
        if (orgId === undefined) throw new BadRequest(`--store: no store ${JSON.stringify(storeId)} in ${dataDir}`);
        const timeZone = services.stores.retailStores.get(orgId, storeId)?.timeZone ?? DEFAULT_TIME_ZONE;
        const date = typeof values.date === 'string' ? values.date : localDate(Date.now(), timeZone);
        const query = DailyReportQuerySchema.safeParse({ store: storeId, date });
        if (!query.success) throw new BadRequest(`--date: ${JSON.stringify(date)} must be a day of the calendar as YYYY-MM-DD`);
        const report = services.reports.daily({ orgId, keyKind: 'read', features: [] }, query.data);
        return { json: report, text: values.csv === true ? reportCsv(report) : reportTable(report) };
      }),
  },
];
