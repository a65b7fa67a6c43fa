import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { registerCategoryPaths } from './categories.js';
import type { PathRegistrar } from './helpers.js';
import { registerIdentityLogPaths } from './identity-logs.js';
import { registerOrderPaths } from './orders.js';
import { registerProductImagePaths } from './product-images.js';
import { registerProductPaths } from './products.js';
import { registerStorePaths } from './stores.js';
import { registerSupplierPaths } from './suppliers.js';
import { registerSystemPaths } from './system.js';

const registrars: PathRegistrar[] = [registerSystemPaths, registerProductPaths, registerProductImagePaths, registerSupplierPaths, registerCategoryPaths, registerStorePaths, registerOrderPaths, registerIdentityLogPaths];

/** The OpenAPI 3.1 document of every endpoint, generated from the zod schemas. */
export function buildOpenApiDocument(serverVersion: string) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'Organization API key. Read keys may only GET; write keys may do everything.',
  });
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
