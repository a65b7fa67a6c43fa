import { z } from 'zod';
import { DateTimeSchema } from './common.js';

const count = z.int().min(0);
const bytes = z.int().min(0).nullable();

/**
 * What a store PC tells its upstream after its sync rounds. Fields a newer
 * store PC adds are ignored rather than refused: PCs on several versions
 * report to one upstream.
 */
export const HeartbeatSchema = z
  .object({
    device: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, { error: 'must be the installation id: 8 to 64 letters, digits, - or _' }).describe(
      "The store PC's installation id: random, renewed by a restore or on a copied data folder.",
    ),
    name: z.string().min(1).max(100).describe('Name of the PC: `DEVICE_NAME`, or its host name.'),
    version: z.string().min(1).max(50).describe('Version of the store server.'),
    stores: z.array(z.string().min(1).max(200)).max(50).describe('Upstream ids of the stores whose sales this PC recorded in the last 30 days.'),
    lastPushAt: DateTimeSchema.nullable().describe('End of its last push that reached the end of its queue (its clock).'),
    lastPullAt: DateTimeSchema.nullable().describe('Start of its last complete pull (its clock).'),
    pending: count.describe('Local writes waiting to be pushed.'),
    parked: count.describe('Local writes this upstream refused, waiting for staff.'),
    oldestPendingAt: DateTimeSchema.nullable().describe('Time of its oldest pending write.'),
    lastSaleAt: DateTimeSchema.nullable().describe('orderDate of its latest sale.'),
    printers: z
      .array(
        z.object({
          name: z.string().min(1).max(200),
          // A string, not the enum: a newer store PC may know printer states this upstream does not.
          state: z.string().min(1).max(40).describe('`ready`, `offline`, `paperOut` or `error` (see PrinterStatus).'),
        }),
      )
      .max(20)
      .describe('Receipt printers the PC printed on or checked since it started, with their last state.'),
    diskFreeBytes: bytes.describe('Space left on the disk of its data folder, in bytes.'),
    databaseBytes: bytes.describe('Size of its database, in bytes.'),
    alerts: z
      .array(
        z.object({
          store: z.string().min(1).max(200).describe('Upstream id of the store concerned.'),
          // A string, not the enum: a newer store PC may know conditions this upstream does not; those are ignored.
          kind: z.string().min(1).max(40).describe('The condition, as `GET /alerts` names it.'),
          since: DateTimeSchema.describe('When the condition started (its clock).'),
          detail: z.string().max(500).describe('What the PC saw, in words.'),
        }),
      )
      .max(100)
      .optional()
      .describe('Its open alerts (conditions that lasted `ALERT_AFTER_MS`). Absent from PCs of versions before it.'),
    mailsAlerts: z
      .boolean()
      .optional()
      .describe(
        'True: the PC has a mail server and mails its alerts to the store itself; false: it has none and the upstream mails them. ' +
          'Absent from PCs of versions before it: the upstream mails none of their alerts.',
      ),
  })
  .meta({ id: 'Heartbeat', description: "A store PC's state, sent to the upstream after its sync rounds." });

export const FleetStateSchema = z
  .enum(['ok', 'behind', 'parked', 'offline', 'outdated'])
  .describe(
    '`offline`: no heartbeat for longer than the offline threshold; `parked`: the upstream refused some of its writes; ' +
      '`behind`: its oldest pending write is older than the behind threshold; `outdated`: it runs an older version than the ' +
      'newest one among the devices; `ok` otherwise. The first that applies, in that order.',
  );

export const FleetDeviceSchema = HeartbeatSchema.extend({
  lastSeenAt: DateTimeSchema.describe("When this upstream last heard from the device (the upstream's clock)."),
  state: FleetStateSchema,
  offlineSince: DateTimeSchema.nullable().describe('For `offline`: its last heartbeat; null otherwise.'),
}).meta({ id: 'FleetDevice', description: 'A store PC syncing with this server, as it last reported.' });

export const FleetQuerySchema = z
  .object({
    behindSeconds: z.coerce.number().int().min(1).max(2_592_000).optional().describe('Behind threshold in seconds; default `FLEET_BEHIND_SECONDS` or 900.'),
    offlineSeconds: z.coerce.number().int().min(1).max(2_592_000).optional().describe('Offline threshold in seconds; default `FLEET_OFFLINE_SECONDS` or 600.'),
  })
  .strict();

export type Heartbeat = z.infer<typeof HeartbeatSchema>;
export type FleetDevice = z.infer<typeof FleetDeviceSchema>;
export type FleetState = z.infer<typeof FleetStateSchema>;
export type FleetQuery = z.infer<typeof FleetQuerySchema>;
