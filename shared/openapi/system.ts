import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { dataOf } from '../api/common.js';
import { HealthSchema, SystemInfoSchema } from '../api/system.js';
import { EXTENSION, errors, json } from './helpers.js';

export function registerSystemPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    ...EXTENSION,
    summary: 'Liveness and search readiness (no key needed)',
    security: [],
    responses: { 200: json(HealthSchema, 'The server answers.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/openapi.json',
    ...EXTENSION,
    summary: 'This OpenAPI 3.1 document (no key needed)',
    security: [],
    responses: { 200: json(z.record(z.string(), z.unknown()), 'The document.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/system',
    ...EXTENSION,
    summary: 'Version, database size and disk space left',
    description: 'For the staff page. Any key of an organization on this server.',
    responses: { 200: json(dataOf(SystemInfoSchema), 'The figures.'), ...errors([403]) },
  });
}
