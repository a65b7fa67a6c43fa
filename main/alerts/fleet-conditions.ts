import { AlertKindSchema } from '../../shared/api/mail.js';
import type { FleetDeviceStore } from '../storage/fleet-devices.js';
import type { Observation } from './alert-conditions.js';

/**
 * What a hub knows of its store PCs from their heartbeats: a PC silent for
 * `silentAfterMs` is a `store-pc-silent` condition of each store it serves
 * (since its last heartbeat, so it is an alert at once), and the alerts a PC
 * reported last are conditions of their stores, mailed here only when the PC
 * said it has no mail server of its own. A silent PC's last report stands:
 * what it said last is the best the hub knows.
 */
export function observeFleet(devices: Pick<FleetDeviceStore, 'alertSources'>, orgId: string, now: Date, silentAfterMs: number): Observation[] {
  const seen: Observation[] = [];
  const silentSince = new Date(now.getTime() - silentAfterMs).toISOString();
  for (const device of devices.alertSources(orgId, silentSince)) {
    if (device.lastSeenAt <= silentSince) {
      for (const store of device.stores) seen.push({ kind: 'store-pc-silent', store, since: device.lastSeenAt, detail: `${device.name} (${device.device})` });
    }
    for (const alert of device.alerts) {
      const kind = AlertKindSchema.safeParse(alert.kind);
      if (!kind.success || kind.data === 'store-pc-silent') continue;
      seen.push({ kind: kind.data, store: alert.store, since: alert.since, detail: `${device.name}: ${alert.detail}`, mailedElsewhere: device.mailsAlerts !== false });
    }
  }
  return seen;
}
