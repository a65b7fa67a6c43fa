import type { IncomingMessage } from 'node:http';
import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { Caller } from '../services/caller.js';
import type { OrganizationService } from '../services/organizations.js';
import { callerFromHeader } from './auth.js';
import { allows, type Allowed } from './permissions.js';
import { writeKeyInTheClear } from './write-key-transport.js';

/** As node:http names request headers. */
const RELAYING_HEADER = SYNC_ACKNOWLEDGED_HEADER.toLowerCase();

/**
 * The caller of a request taken in front of Express (hot-reads.ts,
 * hot-writes.ts) when its key passes every check the middlewares make
 * (`authenticate`, `writeKeysOverTls`, `enforcePermissions`), else undefined:
 * the request then goes to Express, which refuses it in its own words.
 * `checkPermissions` is false only where the benchmark leaves out the check
 * of key kinds (AppDeps.withoutPermissionCheck).
 */
export function laneCaller(organizations: OrganizationService, checkPermissions: boolean): (req: IncomingMessage, allowed: Allowed) => Caller | undefined {
  return (req, allowed) => {
    const caller = callerFromHeader(organizations, req.headers.authorization, req.headers[RELAYING_HEADER] !== undefined);
    if ('refused' in caller || writeKeyInTheClear(caller.keyKind, req.socket)) return undefined;
    return !checkPermissions || allows(allowed, caller.keyKind) ? caller : undefined;
  };
}
