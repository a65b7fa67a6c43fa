import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { SuccessSchema, dataOf } from '../api/common.js';
import { CurrentKeySchema, KeyCreatedSchema, KeyCreateSchema, KeySchema } from '../api/keys.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerKeyPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/keys',
    ...EXTENSION,
    summary: "The organization's keys, never a secret (Write key)",
    responses: { 200: json(z.object({ data: z.array(KeySchema) }), 'Every key, revoked ones included, oldest first.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/keys',
    ...EXTENSION,
    summary: 'Make a key, e.g. one per kiosk bound to its store (Write key)',
    description:
      'The secret is in this answer only; only its hash is stored. `Idempotency-Key` is not honoured here, since a kept answer would keep the secret: ' +
      'a client that lost the answer makes another key and revokes the first.',
    request: { body: { content: { 'application/json': { schema: KeyCreateSchema } } } },
    responses: { 201: json(KeyCreatedSchema, 'Created.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/keys/current',
    ...EXTENSION,
    summary: 'The key of this request (any key)',
    description: "A kiosk's set-up screen learns its store from it, and can refuse a staff key.",
    responses: { 200: json(dataOf(CurrentKeySchema), 'The key.'), ...errors([403]) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/keys/{keyId}',
    ...EXTENSION,
    summary: 'Revoke a key at once (Write key)',
    description: 'The very next request made with the key is refused.',
    request: { params: z.object({ keyId: z.string().describe('Key id, as `GET /keys` lists it.') }) },
    responses: { 200: json(SuccessSchema, 'Revoked.'), ...errors([403, 404]) },
  });
}
