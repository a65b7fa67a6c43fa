import type { FleetDevice, Heartbeat } from '../../shared/api/fleet.js';
import { compareVersions, fleetState, type FleetThresholds } from '../rules/fleet-state.js';
import type { Clock } from '../services/clock.js';
import { NotFound } from '../services/errors.js';
import type { FleetDeviceStore } from '../storage/fleet-devices.js';

/**
 * The upstream's view of its store PCs: each heartbeat replaces the device's
 * last one; a device that stops reporting stays listed, `offline`, until
 * staff remove it.
 */
export function createFleet(deps: { devices: FleetDeviceStore; clock: Clock; thresholds: FleetThresholds }) {
  return {
    record(orgId: string, heartbeat: Heartbeat): void {
      deps.devices.record(orgId, heartbeat, deps.clock.now().toISOString());
    },
    list(orgId: string, thresholds: Partial<FleetThresholds> = {}): FleetDevice[] {
      const now = deps.clock.now();
      const limits = { ...deps.thresholds, ...thresholds };
      const stored = deps.devices.list(orgId);
      const latest = stored.map((d) => d.report.version).reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b), '');
      return stored
        .map(({ report, lastSeenAt }) => {
          const state = fleetState({ ...report, lastSeenAt }, now, limits, latest);
          return { ...report, lastSeenAt, state, offlineSince: state === 'offline' ? lastSeenAt : null };
        })
        .sort((a, b) => a.name.localeCompare(b.name) || a.device.localeCompare(b.device));
    },
    remove(orgId: string, device: string): void {
      if (!deps.devices.remove(orgId, device)) throw new NotFound('Device', device);
    },
  };
}

export type Fleet = ReturnType<typeof createFleet>;
