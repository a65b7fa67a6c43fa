import { SettlementCreateSchema, type SettlementSummary } from '../../shared/api/settlements.js';
import type { Caller } from '../services/caller.js';
import { systemClock } from '../services/clock.js';
import { BadRequest, NotFound } from '../services/errors.js';
import type { Services } from '../services/index.js';
import type { Db } from '../storage/database.js';
import { createSettlements } from '../settlements/index.js';
import { need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

/** The CLI settles as staff of the organization, without a key. */
function staffOf(services: Services, orgId: string): Caller {
  const org = services.stores.organizations.get(orgId);
  if (!org) throw new NotFound('Organization', orgId);
  return { orgId, keyKind: 'write', features: org.features };
}

const settlementsOf = (services: Services, db: Db) =>
  createSettlements({ db, clock: systemClock, stores: services.stores.retailStores, suppliers: services.stores.suppliers });

const francs = (cents: number) => (cents / 100).toFixed(2);
const line = (s: SettlementSummary) =>
  `${String(s.number).padStart(4)}  ${s.id}  to ${s.to}  ${s.store ?? 'every store'}  gross ${francs(s.totals.gross)}  margin ${francs(s.totals.margin)}  payout ${francs(s.totals.payout)}`;

export const settlementCommands: CliCommand[] = [
  {
    name: 'settlement create',
    usage: '<orgId> --to <date-time> [--store <storeId>]   (settles the sales recorded before --to; prints the settlement)',
    options: { to: { type: 'string' }, store: { type: 'string' } },
    run: ({ args, values, dataDir }) =>
      withServices(dataDir, async (services, db) => {
        const caller = staffOf(services, need(args[0], '<orgId>'));
        const body = SettlementCreateSchema.safeParse({ to: need(values.to, '--to <date-time>'), ...(typeof values.store === 'string' ? { store: values.store } : {}) });
        if (!body.success) throw new BadRequest(`--to: ${JSON.stringify(values.to)} must be a date-time such as 2026-12-01T00:00:00+01:00`);
        const settlements = settlementsOf(services, db).service;
        const settlement = settlements.get(caller, await settlements.create(caller, body.data));
        const suppliers = settlement.suppliers.map((s) => `  ${s.name}: gross ${francs(s.gross)}, margin ${francs(s.margin)} (${s.marginPercent} %), payout ${francs(s.payout)}${s.payoutProblem ? ` — no payout: ${s.payoutProblem}` : ''}`);
        return { json: settlement, text: [`Settlement ${line(settlement).trim()}`, ...suppliers].join('\n') };
      }),
  },
  {
    name: 'settlement list',
    usage: '<orgId>   (the settlements, newest first)',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (services, db) => {
        const list = settlementsOf(services, db).service.list(staffOf(services, need(args[0], '<orgId>')));
        return { json: list, text: list.length === 0 ? 'No settlements yet.' : list.map(line).join('\n') };
      }),
  },
  {
    name: 'settlement payout-file',
    usage: '<orgId> <settlementId>   (writes the pain.001 payout file to standard output, for upload in e-banking)',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (services, db) => {
        const caller = staffOf(services, need(args[0], '<orgId>'));
        const file = settlementsOf(services, db).payoutFiles.payoutFileOf(caller, need(args[1], '<settlementId>'));
        return { json: { xml: file }, text: file, file };
      }),
  },
];
