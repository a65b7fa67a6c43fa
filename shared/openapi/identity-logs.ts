import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { CreatedSchema, SuccessSchema, dataOf, listOf } from '../api/common.js';
import {
  BlockedIdentityCreateSchema,
  BlockedIdentityListQuerySchema,
  BlockedIdentitySchema,
  BlockedIdentityUpdateSchema,
  IdentityLogCreateSchema,
  IdentityLogListQuerySchema,
  IdentityLogSchema,
  IdentityVerdictRequestSchema,
  IdentityVerdictSchema,
} from '../api/identity-logs.js';
import { EXTENSION, errors, json } from './helpers.js';

const params = z.object({ blockedId: z.string().describe('Blocked identity id.') });
const GATED = ' Needs the identity-logs feature: 403 `Feature not available` otherwise.';
const TAGS = ['Identity logs'];

export function registerIdentityLogPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/identity-logs',
    tags: TAGS,
    summary: 'List identity checks, newest first',
    description: `Newest first by logDate, then id; \`start\` and \`end\` are inclusive. Paged by \`cursor\`.${GATED}`,
    request: { query: IdentityLogListQuerySchema },
    responses: { 200: json(listOf(IdentityLogSchema), 'A page of identity checks.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/identity-logs',
    ...EXTENSION,
    summary: 'Record an identity check (Write key)',
    description: GATED.trim(),
    request: { body: { content: { 'application/json': { schema: IdentityLogCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Recorded.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/identity-logs/verdict',
    ...EXTENSION,
    summary: 'Is this identity blocked? (Kiosk or write key)',
    description:
      'Compares an identity read from a document with the active blocked identities: the same raw MRZ, or the same last name with every blocked ' +
      'first name among the given ones and, when the blocked identity has one, the same birth date. Answers only `blocked`; the list stays on the server. ' +
      'The birth date as read from the document is required, so the blocked list cannot be probed by names alone; each key may ask for ' +
      `30 verdicts a minute, then 429. Each verdict is recorded as an identity check (\`logType\` \`verdict\`, \`access\` false when blocked).${GATED}`,
    request: { body: { content: { 'application/json': { schema: IdentityVerdictRequestSchema } } } },
    responses: { 200: json(dataOf(IdentityVerdictSchema), 'The verdict.'), ...errors([400, 403, 429]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/identity-logs/blocked',
    tags: TAGS,
    summary: 'List blocked identities in id order',
    description: `Active (not unblocked) identities, paged by \`cursor\`.${GATED}`,
    request: { query: BlockedIdentityListQuerySchema },
    responses: { 200: json(listOf(BlockedIdentitySchema), 'A page of blocked identities.'), ...errors([400, 403], { validation: true }) },
  });
  registry.registerPath({
    method: 'post',
    path: '/identity-logs/blocked',
    ...EXTENSION,
    summary: 'Block an identity (Write key)',
    description: GATED.trim(),
    request: { body: { content: { 'application/json': { schema: BlockedIdentityCreateSchema } } } },
    responses: { 200: json(CreatedSchema, 'Blocked.'), ...errors([400, 403]) },
  });
  registry.registerPath({
    method: 'get',
    path: '/identity-logs/blocked/{blockedId}',
    ...EXTENSION,
    summary: 'Read a blocked identity (also an unblocked one, with `deleted: true`)',
    description: GATED.trim(),
    request: { params },
    responses: { 200: json(dataOf(BlockedIdentitySchema), 'The blocked identity.'), ...errors([403, 404]) },
  });
  registry.registerPath({
    method: 'post',
    path: '/identity-logs/blocked/{blockedId}',
    tags: TAGS,
    summary: 'Update a blocked identity (Write key)',
    description: `comment, first_name and last_name are required; an omitted birthDate keeps the stored one.${GATED}`,
    request: { params, body: { content: { 'application/json': { schema: BlockedIdentityUpdateSchema } } } },
    responses: { 200: json(SuccessSchema, 'Updated.'), ...errors([400, 403, 404]) },
  });
  registry.registerPath({
    method: 'delete',
    path: '/identity-logs/blocked/{blockedId}',
    ...EXTENSION,
    summary: 'Unblock an identity: soft-deletes it (Write key)',
    description: GATED.trim(),
    request: { params },
    responses: { 200: json(SuccessSchema, 'Unblocked (also when it already was).'), ...errors([403, 404]) },
  });
}
