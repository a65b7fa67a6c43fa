import { z } from 'zod';

/**
 * Sent by a store's sync worker with every call it pushes: the lowest id of an
 * outbox entry it may still send; every entry below it is settled there for good.
 */
export const SYNC_ACKNOWLEDGED_HEADER = 'Sync-Acknowledged-Below';

/** Request headers every POST accepts. */
export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours for the API key that sent it ' +
        '(another API key with the same value is a different request); the same value with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; ' +
        'the same value with another body is 422; a repeat while the first request is still running is 409. ' +
        'Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters. ' +
        "A sync worker's creation (key `sync-…-<entry id>`, not an order) is kept until its store acknowledges it " +
        '(`sync-acknowledged-below`), for at most 90 days.',
    ),
  'sync-acknowledged-below': z
    .string()
    .regex(/^\d{1,15}$/)
    .optional()
    .describe(
      "Extension, sent by a store's sync worker with every call it pushes: the lowest id of an outbox entry it may still send. " +
        'Kept answers to its keys (`sync-…-<entry id>`) below it are forgotten at the next purge. On an organization without an ' +
        'upstream of its own, a write that carries it adds nothing to the outbox (the store that pushed it keeps it). ' +
        'Honoured only from write keys (the keys a store syncs with); from any other key it is ignored.',
    ),
});
