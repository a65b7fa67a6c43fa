import { z } from 'zod';
import { DateTimeSchema } from './common.js';

export const SyncStateSchema = z
  .enum(['off', 'idle', 'pushing', 'pulling', 'offline', 'refused'])
  .describe(
    '`off`: sync not configured; `idle`: waiting for the next round; `pushing`/`pulling`: a round is running; ' +
      '`offline`: the upstream could not be reached, retried with backoff; `refused`: the upstream refused the key, ' +
      'nothing is sent until `sync configure` sets a new one.',
  );

export const SyncStatusSchema = z
  .object({
    configured: z.boolean().describe('Whether this organization mirrors an upstream.'),
    upstream: z.string().nullable().describe('Upstream base URL (incl. /api/v1); null when not configured. The key is never shown.'),
    state: SyncStateSchema,
    pending: z.int().describe('Local writes waiting to be pushed.'),
    parked: z.int().describe('Local writes the upstream refused, waiting for `sync retry` or `sync discard`.'),
    lastPushAt: DateTimeSchema.nullable().describe('End of the last push that reached the end of the queue.'),
    lastPullAt: DateTimeSchema.nullable().describe('Start of the last complete pull: the local catalog reflects the upstream as of then.'),
    lastFullPullAt: DateTimeSchema.nullable().describe(
      'Extension: start of the last complete full pull, which read the whole upstream catalog and removed what it no longer lists.',
    ),
    lastError: z.string().nullable().describe('Why the last round stopped early (upstream unreachable or key refused); null after a complete round.'),
    oldestPendingAt: DateTimeSchema.nullable().describe('Time of the oldest pending write; null when none waits.'),
    databaseBytes: z.int().describe("Extension: size of this server's database file in bytes (pages in use and free)."),
    nextPurgeAt: DateTimeSchema.nullable().describe(
      'Extension: when the server next deletes what is past its retention (pushed outbox entries, expired kept answers, ' +
        'soft-deleted records, old orders of a synced organization); null when no server has run on this data folder yet.',
    ),
  })
  .meta({ id: 'SyncStatus', description: 'Reconciliation with the upstream, for the organization of the key.' });

export const ParkedEntrySchema = z
  .object({
    id: z.int().describe('Outbox entry id, as `sync retry` and `sync discard` take it.'),
    operation: z.enum(['create', 'update', 'delete']),
    resource: z.string().describe('What was written: product, product-image, category, supplier, store, order, identity-log, blocked-identity.'),
    resourceId: z.string().describe('Local id of the record.'),
    status: z.int().describe('HTTP status the upstream answered (0 when the entry could not be turned into a call).'),
    message: z.string().describe("The upstream's message."),
    parkedAt: DateTimeSchema,
  })
  .meta({ id: 'ParkedEntry', description: 'A local write the upstream refused, kept until retried or discarded.' });

export const RetriedSchema = z
  .object({ retried: z.int().describe('Parked entries put back in the queue: 1.') })
  .meta({ id: 'Retried' });

export const DiscardedSchema = z
  .object({ discarded: z.int().describe('Parked entries given up on: 1. The outbox keeps a record of it.') })
  .meta({ id: 'Discarded' });

export type SyncStatus = z.infer<typeof SyncStatusSchema>;
export type ParkedEntry = z.infer<typeof ParkedEntrySchema>;
