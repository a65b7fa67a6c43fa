import type { Heartbeat } from '../../shared/api/fleet.js';
import type { Db } from './database.js';

export interface StoredDevice {
  report: Heartbeat;
  lastSeenAt: string;
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
  return {
    record(orgId: string, report: Heartbeat, now: string): void {
      upsert.run({ orgId, device: report.device, version: report.version, report: JSON.stringify(report), now });
    },
    list(orgId: string): StoredDevice[] {
      return list.all(orgId).map((row) => ({ report: JSON.parse(row.report) as Heartbeat, lastSeenAt: row.last_seen_at }));
    },
    /** True when the device was listed. */
    remove(orgId: string, device: string): boolean {
      return remove.run(orgId, device).changes === 1;
    },
  };
}

export type FleetDeviceStore = ReturnType<typeof createFleetDeviceStore>;
