import { z } from 'zod';
import { DateTimeSchema } from './common.js';

/** What a key may be used for; the server's permission table says what each kind may do. */
export const KEY_KINDS = ['read', 'write', 'kiosk', 'scale'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** Longest name staff may give a key. */
export const MAX_KEY_NAME_LENGTH = 100;

export const KeyKindSchema = z
  .enum(KEY_KINDS, { error: `must be one of ${KEY_KINDS.join(', ')}` })
  .describe(
    '`read`: reads everything; `write`: does everything (staff); `kiosk`: a self-checkout bound to one store, reads the catalog and its store, ' +
      "records that store's sales and identity checks; `scale`: reads products and categories.",
  );

export const KeyCreateSchema = z
  .strictObject({
    kind: KeyKindSchema,
    store: z
      .string({ error: 'must be a string' })
      .min(1, { error: 'must not be empty' })
      .optional()
      .describe('Store the key is bound to: required for `kiosk`, allowed for `scale`, refused for `read` and `write`.'),
    name: z
      .string({ error: 'must be a string' })
      .trim()
      .min(1, { error: 'must not be empty' })
      .max(MAX_KEY_NAME_LENGTH, { error: `must be at most ${MAX_KEY_NAME_LENGTH} characters` })
      .optional()
      .describe('What staff call the device, e.g. `Kiosk 2 by the door`.'),
  })
  .meta({ id: 'KeyCreate', description: 'A new key. Unknown fields are refused.' });

export const KeyCreatedSchema = z
  .object({
    success: z.boolean(),
    id: z.string().describe('Key id, for `DELETE /keys/{keyId}`.'),
    key: z.string().describe('The secret, shown this once: only its hash is stored.'),
  })
  .meta({ id: 'KeyCreated' });

export const KeySchema = z
  .object({
    id: z.string(),
    kind: KeyKindSchema,
    store: z.string().nullable().describe('Store a device key is bound to; null when unbound.'),
    name: z.string().nullable().describe('Name given at creation; null when none.'),
    active: z.boolean().describe('false once revoked.'),
    createdAt: DateTimeSchema,
    lastUsedAt: DateTimeSchema.nullable().describe(
      'Last request made with the key, accurate to a minute (the server writes it at most once a minute per key); null when never used.',
    ),
  })
  .meta({ id: 'Key', description: 'A key of the organization. The secret is never shown again.' });

export const CurrentKeySchema = z
  .object({
    id: z.string(),
    kind: KeyKindSchema,
    store: z.string().nullable().describe('Store the key is bound to; a kiosk sells for this store.'),
    name: z.string().nullable(),
  })
  .meta({ id: 'CurrentKey', description: 'The key the request was made with.' });

export type KeyCreate = z.infer<typeof KeyCreateSchema>;
export type ApiKey = z.infer<typeof KeySchema>;
export type CurrentKey = z.infer<typeof CurrentKeySchema>;
