import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { StandardErrorSchema } from '../api/common.js';
import { IdempotencyHeadersSchema } from '../api/idempotency.js';
import { registerCatalogPaths } from './catalog.js';
import { registerCategoryPaths } from './categories.js';
import { registerFleetPaths } from './fleet.js';
import { json, type PathRegistrar } from './helpers.js';
import { registerIdentityLogPaths } from './identity-logs.js';
import { registerKeyPaths } from './keys.js';
import { registerMailPaths } from './mail.js';
import { registerOrderPaths } from './orders.js';
import { registerPaymentPaths } from './payments.js';
import { registerProductImagePaths } from './product-images.js';
import { registerProductPaths } from './products.js';
import { registerReceiptPaths } from './receipts.js';
import { registerReportPaths } from './reports.js';
import { registerStorePaths } from './stores.js';
import { registerSettlementPaths } from './settlements.js';
import { registerStaffSignInPaths } from './staff-sign-in.js';
import { registerSupplierPaths } from './suppliers.js';
import { registerSyncPaths } from './sync.js';
import { registerSystemPaths } from './system.js';

const registrars: PathRegistrar[] = [registerSystemPaths, registerProductPaths, registerProductImagePaths, registerSupplierPaths, registerCategoryPaths, registerCatalogPaths, registerStorePaths, registerOrderPaths, registerReceiptPaths, registerPaymentPaths, registerReportPaths, registerIdentityLogPaths, registerSyncPaths, registerKeyPaths, registerStaffSignInPaths, registerFleetPaths, registerMailPaths, registerSettlementPaths];

/** POSTs whose answer holds a secret, which is never kept for a replay. */
const WITHOUT_IDEMPOTENCY_KEY: ReadonlySet<string> = new Set(['/keys', '/staff/sign-in']);

/** Every POST takes `Idempotency-Key`; the header and its two answers are described once, here. */
function withIdempotencyKey(route: RouteConfig): RouteConfig {
  const running = 'A request with the same `Idempotency-Key` is still running';
  const own = route.responses[409];
  const conflict = own && 'description' in own ? `${own.description} Also: ${running.toLowerCase()}.` : `${running} (or the record conflicts).`;
  return {
    ...route,
    request: { ...route.request, headers: route.request?.headers instanceof z.ZodObject ? IdempotencyHeadersSchema.extend(route.request.headers.shape) : IdempotencyHeadersSchema },
    responses: {
      ...route.responses,
      409: json(StandardErrorSchema, conflict),
      422: json(StandardErrorSchema, 'The `Idempotency-Key` was already used with another body.'),
    },
  };
}

/**
 * The local guard refuses a foreign `Host` or `Origin` before any route runs,
 * so every operation, also those without a key, can answer that 403.
 */
function withLocalGuard(route: RouteConfig): RouteConfig {
  if (route.responses[403]) return route;
  return { ...route, responses: { ...route.responses, 403: json(StandardErrorSchema, 'The `Host` or `Origin` of the request is not one of this server (see ALLOWED_HOSTS, ALLOWED_ORIGINS).') } };
}

/** A change feed (a GET taking `updatedSince`) read from before its organization's last purge answers 410. */
function withFeedHorizon(route: RouteConfig): RouteConfig {
  const query = route.request?.query;
  if (route.method !== 'get' || !(query && 'shape' in query && 'updatedSince' in query.shape)) return route;
  const gone = json(
    StandardErrorSchema,
    '`updatedSince` is before the newest deletion a purge removed: the feed could miss it. Read everything again, from `1970-01-01T00:00:00.000Z` or without `updatedSince`.',
  );
  return { ...route, responses: { ...route.responses, 410: gone } };
}

/** A write without a body is a 400; saying so lets generated clients require one. */
function withRequiredBody(route: RouteConfig): RouteConfig {
  const body = route.request?.body;
  return body ? { ...route, request: { ...route.request, body: { ...body, required: true } } } : route;
}

/** The OpenAPI 3.1 document of every endpoint, generated from the zod schemas. */
export function buildOpenApiDocument(serverVersion: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      'Organization API key. Read keys may only GET; write keys may do everything; kiosk keys (bound to one store) and scale keys may do what each operation lists in the API reference. ' +
      'The staff page sends its key once, to `POST /staff/sign-in`, and then the `staff_sign_in` cookie instead (an ended sign-in answers 401).',
  });
  const registerPath = registry.registerPath.bind(registry);
  registry.registerPath = (route: RouteConfig) => {
    if (route.method !== 'post') return registerPath(withLocalGuard(withFeedHorizon(route)));
    const withBody = withRequiredBody(route);
    return registerPath(withLocalGuard(WITHOUT_IDEMPOTENCY_KEY.has(route.path) ? withBody : withIdempotencyKey(withBody)));
  };
  for (const register of registrars) register(registry);
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Retail Catalog and Orders API (local)',
      version: '1.0.0',
      description: `Served by the store PC's local server ${serverVersion}. Endpoints tagged Extensions go beyond the v1 contract.`,
    },
    servers: [{ url: '/api/v1' }],
    security: [{ bearerKey: [] }],
  });
}
