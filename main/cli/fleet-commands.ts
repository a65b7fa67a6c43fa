import type { FleetDevice } from '../../shared/api/fleet.js';
import { readConfig } from '../config.js';
import { createFleet } from '../fleet/fleet.js';
import { DEFAULT_THRESHOLDS } from '../rules/fleet-state.js';
import { systemClock } from '../services/clock.js';
import { NotFound } from '../services/errors.js';
import { createFleetDeviceStore } from '../storage/fleet-devices.js';
import { need, type CliCommand } from './command.js';
import { withServices } from './open-services.js';

const gigabytes = (bytes: number | null) => (bytes === null ? '–' : `${(bytes / 1e9).toFixed(1)} GB`);

/** One line per device, the columns head office looks at first. */
function fleetTable(devices: FleetDevice[]): string {
  if (devices.length === 0) return 'No store PC has reported to this server yet.';
  const rows = [
    ['name', 'device', 'version', 'state', 'last seen', 'pending', 'parked', 'printers', 'disk free'],
    ...devices.map((d) => [
      d.name,
      d.device.slice(0, 8),
      d.version,
      d.state === 'offline' ? `offline since ${d.offlineSince}` : d.state,
      d.lastSeenAt,
      String(d.pending),
      String(d.parked),
      d.printers.map((p) => `${p.name} ${p.state}`).join(', ') || '–',
      gigabytes(d.diskFreeBytes),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export const fleetCommands: CliCommand[] = [
  {
    name: 'fleet',
    usage: '<orgId>',
    run: ({ args, dataDir }) =>
      withServices(dataDir, (services, db) => {
        const orgId = need(args[0], '<orgId>');
        if (!services.stores.organizations.get(orgId)) throw new NotFound('Organization', orgId);
        const thresholds = readConfig().fleetThresholds ?? DEFAULT_THRESHOLDS;
        const devices = createFleet({ devices: createFleetDeviceStore(db), clock: systemClock, thresholds }).list(orgId);
        return { json: devices, text: fleetTable(devices) };
      }),
  },
];
