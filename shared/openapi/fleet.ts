import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { SuccessSchema } from '../api/common.js';
import { FleetDeviceSchema, FleetQuerySchema, HeartbeatSchema } from '../api/fleet.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerFleetPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/fleet/heartbeat',
    ...EXTENSION,
    summary: "A store PC's state, after its sync rounds (Write key)",
    description:
      'Sent by the sync worker of a store PC whose upstream is this server (it finds this path in this document). ' +
      'Replaces the device\'s last report; one row per device and organization. Unknown fields are ignored.',
    request: { body: { content: { 'application/json': { schema: HeartbeatSchema } } } },
    responses: { 200: json(SuccessSchema, 'Recorded.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/fleet',
    ...EXTENSION,
    summary: 'The store PCs that sync with this server, with a computed state',
    description:
      'Every device of the organization that ever reported, by name. A device that stops reporting stays, `offline`, ' +
      'until `DELETE /fleet/{device}` removes it. Thresholds: `behindSeconds`, `offlineSeconds`, else the server\'s ' +
      '`FLEET_BEHIND_SECONDS` (900) and `FLEET_OFFLINE_SECONDS` (600).',
    request: { query: FleetQuerySchema },
    responses: { 200: json(z.object({ data: z.array(FleetDeviceSchema) }), 'The devices.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/fleet/{device}',
    ...EXTENSION,
    summary: 'Forget a store PC (Write key)',
    description: 'For a PC replaced or switched off for good. One that reports again is listed again.',
    request: { params: z.object({ device: z.string().describe('The device (installation id) as `GET /fleet` lists it.') }) },
    responses: { 200: json(SuccessSchema, 'Removed.'), ...errors([403, 404]) },
  });
}
