import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { dataOf } from '../api/common.js';
import { DiscardedSchema, ParkedEntrySchema, RetriedSchema, SyncStatusSchema } from '../api/sync.js';
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
  const params = z.object({ entryId: z.string().regex(/^\d+$/).describe('Entry id as `GET /sync/parked` lists it (a whole number); anything else is a 400.') });
  registry.registerPath({
    method: 'post',
    path: '/sync/parked/{entryId}/retry',
    ...EXTENSION,
    summary: 'Put a parked entry back in the queue (Write key)',
    description: 'What `sync retry` does: the entry is pushed again in its place in the queue, and a round starts soon. No body.',
    request: { params },
    responses: { 200: json(dataOf(RetriedSchema), 'Back in the queue.'), ...errors([400, 403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/sync/parked/{entryId}/discard',
    ...EXTENSION,
    summary: 'Give up on a parked entry (Write key)',
    description:
      'What `sync discard` does: the local write is never sent to the upstream, so the upstream stays without it (the local record keeps it). ' +
      'The outbox keeps a record of the entry. No body.',
    request: { params },
    responses: { 200: json(dataOf(DiscardedSchema), 'Discarded.'), ...errors([400, 403, 404]) },
  });
}
