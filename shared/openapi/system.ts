import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { dataOf } from '../api/common.js';
import { HealthSchema, SystemInfoSchema } from '../api/system.js';
import { UpdateStatusSchema } from '../api/update-status.js';
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
    path: '/update',
    ...EXTENSION,
    summary: "The desktop app's self-update: running version, version available, state (no key needed)",
    description: 'The headless server (`npm start`) does not update itself and reports `off`. See docs/desktop.md.',
    security: [],
    responses: { 200: json(dataOf(UpdateStatusSchema), 'Where the update stands.') },
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
