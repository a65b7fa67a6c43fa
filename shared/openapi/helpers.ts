import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { SearchUnavailableSchema, StandardErrorSchema, ValidationErrorSchema } from '../api/common.js';

type Responses = RouteConfig['responses'];

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body or parameters; the message names the field and the reason.',
  403: 'Missing, unknown or revoked key; Read key on a write; `Feature not available`; or a `Host` or `Origin` that is not one of this server.',
  404: 'No record with that id in the organization of the key.',
  409: 'Conflicts with a stored record.',
  413: 'Body larger than the limit.',
  429: 'Too many requests of this kind from this key; `Retry-After` says in how many seconds to try again.',
};

export const json = (schema: z.ZodType, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** Error responses in the standard shape, plus the validation shape for list queries. */
export function errors(codes: number[], options: { validation?: boolean; search?: boolean } = {}): Responses {
  const out: Responses = {};
  for (const code of codes) {
    out[code] =
      code === 400 && options.validation
        ? json(ValidationErrorSchema, 'Invalid query parameters or body fields, in the validation shape.')
        : json(StandardErrorSchema, ERROR_TEXT[code] ?? 'Error.');
  }
  if (options.search) out[503] = json(SearchUnavailableSchema, 'Search index still building; retry shortly.');
  return out;
}

/** Marks an endpoint this server adds beyond the v1 contract. */
export const EXTENSION: { 'x-extension': true; tags: string[] } = { 'x-extension': true, tags: ['Extensions'] };

export type PathRegistrar = (registry: OpenAPIRegistry) => void;
