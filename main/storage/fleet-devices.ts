import type { Heartbeat } from '../../shared/api/fleet.js';
import type { Db } from './database.js';

export interface StoredDevice {
  report: Heartbeat;
  lastSeenAt: string;
}

/** A device as the alert watch reads it. */
export interface AlertSource {
  device: string;
  name: string;
  lastSeenAt: string;
  stores: string[];
  alerts: NonNullable<Heartbeat['alerts']>;
  mailsAlerts: boolean | undefined;
}

/** `fleet_devices`: one row per store PC and organization, the last heartbeat it sent. */
export function createFleetDeviceStore(db: Db) {
  const upsert = db.prepare(`
    INSERT INTO fleet_devices (org_id, device, version, report, first_seen_at, last_seen_at) VALUES (@orgId, @device, @version, @report, @now, @now)
    ON CONFLICT (org_id, device) DO UPDATE SET version = @version, report = @report, last_seen_at = @now`);
  const list = db.prepare<[string], { report: string; last_seen_at: string }>(
    'SELECT report, last_seen_at FROM fleet_devices WHERE org_id = ? ORDER BY device',
  );
  const remove = db.prepare('DELETE FROM fleet_devices WHERE org_id = ? AND device = ?');
  // Read in SQLite's JSON functions: on a hub of thousands of PCs, parsing every report in JavaScript each look for alerts held the event loop for tens of ms.
  const alerting = db.prepare<[string, string], { device: string; last_seen_at: string; name: string; stores: string; alerts: string | null; mails_alerts: number | null }>(`
    SELECT device, last_seen_at, report ->> '$.name' AS name, report ->> '$.stores' AS stores,
      report ->> '$.alerts' AS alerts, report ->> '$.mailsAlerts' AS mails_alerts
    FROM fleet_devices
    WHERE org_id = ? AND (last_seen_at <= ? OR json_array_length(report, '$.alerts') > 0)`);
  return {
    record(orgId: string, report: Heartbeat, now: string): void {
      upsert.run({ orgId, device: report.device, version: report.version, report: JSON.stringify(report), now });
    },
    list(orgId: string): StoredDevice[] {
      return list.all(orgId).map((row) => ({ report: JSON.parse(row.report) as Heartbeat, lastSeenAt: row.last_seen_at }));
    },
    /** The devices silent since `silentSince` or earlier, and those whose last heartbeat reported alerts. */
    alertSources(orgId: string, silentSince: string): AlertSource[] {
      return alerting.all(orgId, silentSince).map((row) => ({
        device: row.device,
        name: row.name,
        lastSeenAt: row.last_seen_at,
        stores: JSON.parse(row.stores) as string[],
        alerts: row.alerts === null ? [] : (JSON.parse(row.alerts) as NonNullable<Heartbeat['alerts']>),
        mailsAlerts: row.mails_alerts === null ? undefined : row.mails_alerts === 1,
      }));
    },
    /** True when the device was listed. */
    remove(orgId: string, device: string): boolean {
      return remove.run(orgId, device).changes === 1;
    },
  };
}

export type FleetDeviceStore = ReturnType<typeof createFleetDeviceStore>;
