import { z } from 'zod';

/** Request headers every POST accepts. */
export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'Makes a retried POST safe (extension). The first answer (status and body) is kept for 24 hours per organization ' +
        'and key; the same key with the same body replays it with the header `Idempotent-Replayed: true` and changes nothing; ' +
        'the same key with another body is 422; a repeat while the first request is still running is 409. ' +
        'Answers with status 500 or more are not kept. 1 to 255 visible ASCII characters.',
    ),
});
