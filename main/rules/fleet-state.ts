import type { FleetState } from '../../shared/api/fleet.js';

/** When a device counts as `behind` and as `offline`, in milliseconds. */
export interface FleetThresholds {
  behindMs: number;
  offlineMs: number;
}

/** 15 minutes: a sale queued longer than that is late for head office's figures; a short outage is not worth a look. */
export const DEFAULT_BEHIND_SECONDS = 900;
/** 10 minutes: ten missed pull intervals at the default 60 s; a PC switched off for the night shows as offline. */
export const DEFAULT_OFFLINE_SECONDS = 600;

export const DEFAULT_THRESHOLDS: FleetThresholds = { behindMs: DEFAULT_BEHIND_SECONDS * 1000, offlineMs: DEFAULT_OFFLINE_SECONDS * 1000 };

/** Orders versions like 1.10.2 after 1.9.0: numeric parts as numbers, the rest as text. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split(/[.+-]/);
  const [pa, pb] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const [x = '', y = ''] = [pa[i], pb[i]];
    const [nx, ny] = [Number(x), Number(y)];
    const order = x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny) ? nx - ny : x.localeCompare(y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

export interface DeviceFacts {
  lastSeenAt: string;
  parked: number;
  oldestPendingAt: string | null;
  version: string;
}

/** The first state that applies, worst first: offline, parked, behind, outdated, ok. */
export function fleetState(device: DeviceFacts, now: Date, thresholds: FleetThresholds, latestVersion: string): FleetState {
  if (now.getTime() - Date.parse(device.lastSeenAt) > thresholds.offlineMs) return 'offline';
  if (device.parked > 0) return 'parked';
  if (device.oldestPendingAt !== null && now.getTime() - Date.parse(device.oldestPendingAt) > thresholds.behindMs) return 'behind';
  if (compareVersions(device.version, latestVersion) < 0) return 'outdated';
  return 'ok';
}
