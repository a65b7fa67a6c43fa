import { Router } from 'express';
import type { Health } from '../../../shared/api/system.js';
import type { UpdateStatus } from '../../../shared/api/update-status.js';
import { buildOpenApiDocument } from '../../../shared/openapi/document.js';
import { readSystemInfo } from '../../system/storage-info.js';

/** Endpoints that need no key: health, the desktop app's update state and the OpenAPI document. */
export function systemRoutes(options: { version: string; searchState: () => Health['search']; updateStatus: () => UpdateStatus }): Router {
  const router = Router();
  let openApi: string | undefined;

  router.get('/health', (_req, res) => {
    res.json(healthOf(options));
  });

  // Versions and update state only, like /health: the status page shows them before staff enter a key.
  router.get('/update', (_req, res) => {
    res.json({ data: options.updateStatus() });
  });

  router.get('/openapi.json', (_req, res) => {
    openApi ??= JSON.stringify(buildOpenApiDocument(options.version));
    res.type('application/json').send(openApi);
  });

  return router;
}

/** `GET /system` (any key): what staff check on the store PC besides sync. */
export function systemInfoRoutes(options: { version: string; databaseFile: string; tlsFingerprint?: string | undefined }): Router {
  const router = Router();
  router.get('/system', async (_req, res) => {
    res.json({ data: { ...(await readSystemInfo(options.databaseFile, options.version)), tlsFingerprint: options.tlsFingerprint ?? null } });
  });
  return router;
}

/** `GET /health`'s answer. */
export function healthOf(options: { version: string; searchState: () => Health['search'] }): Health {
  return { status: 'ok', version: options.version, search: options.searchState() };
}
