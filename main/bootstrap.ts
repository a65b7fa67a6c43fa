import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OrganizationService } from './services/organizations.js';

/** File in `DATA_DIR` holding the keys of the organization made on first start. */
export const CREDENTIALS_FILE = 'credentials.json';

export interface Credentials {
  organizationId: string;
  organizationName: string;
  readKey: string;
  writeKey: string;
  baseUrl: string;
}

/**
 * On the very first start (no organization yet) creates one for the local
 * store and writes its keys, readable by the owner only, so that a newcomer
 * can call the API at once. Returns the file written, or undefined.
 */
export function bootstrapOrganization(dataDir: string, organizations: OrganizationService, baseUrl: string): string | undefined {
  if (organizations.count() > 0) return undefined;
  const org = organizations.create({ name: 'Local store' });
  const credentials: Credentials = {
    organizationId: org.id,
    organizationName: org.name,
    readKey: org.readKey,
    writeKey: org.writeKey,
    baseUrl,
  };
  const file = join(dataDir, CREDENTIALS_FILE);
  writeFileSync(file, JSON.stringify(credentials, null, 2) + '\n', { mode: 0o600 });
  return file;
}
