import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { dataOf } from '../api/common.js';
import { ParkedEntrySchema, SyncStatusSchema } from '../api/sync.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerSyncPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/sync',
    ...EXTENSION,
    summary: 'Reconciliation with the upstream: state and queue',
    description: 'Configured with the `sync` CLI commands. The upstream key is never returned.',
    responses: { 200: json(dataOf(SyncStatusSchema), 'Where sync stands for the organization of the key.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/sync/parked',
    ...EXTENSION,
    summary: 'Local writes the upstream refused',
    description: 'Oldest first, with the status and message the upstream answered. `sync retry` and `sync discard` act on them.',
    responses: { 200: json(z.object({ data: z.array(ParkedEntrySchema) }), 'The parked entries.'), ...errors([403]) },
  });
}
