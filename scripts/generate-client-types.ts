import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VERSION } from '../main/version.js';
import { buildOpenApiDocument } from '../shared/openapi/document.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The client's types, committed so that the package builds from a clone without a running server. */
export const CLIENT_TYPES_FILE = join(ROOT, 'client', 'src', 'api-types.ts');

/**
 * The client's types from an OpenAPI document; by default the one `GET /openapi.json`
 * serves, built by the app's own function: no server and no network needed.
 */
export async function generateClientTypes(document: unknown = buildOpenApiDocument(VERSION)): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)) as OpenAPI3, { silent: true });
  return `// Generated from the server's OpenAPI document by \`npm run client:types\`; a test fails when it differs.\n\n${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(CLIENT_TYPES_FILE, await generateClientTypes());
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
}
