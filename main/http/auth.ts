import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Caller } from '../services/caller.js';
import { Forbidden } from '../services/errors.js';
import type { OrganizationService } from '../services/organizations.js';

/**
 * Resolves `Authorization: Bearer <key>` to the caller's organization. Checked
 * on every request (from memory while nothing changed the keys, see
 * services/key-grants.ts), so a key revoked with the CLI or `DELETE /keys/{id}`
 * is refused at once. What the key's kind may do is `enforcePermissions`' job.
 */
export function authenticate(organizations: OrganizationService): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const header = req.headers.authorization;
    if (!header) throw new Forbidden('no Authorization header');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw new Forbidden('Authorization header is not "Bearer <key>"');
    const grant = organizations.authenticate(match[1]);
    if (!grant) throw new Forbidden('unknown or revoked key');
    // Only keys that may sync relay a store's writes; the header from any other key is ignored.
    const relayed = grant.kind === 'write' && req.get(SYNC_ACKNOWLEDGED_HEADER) !== undefined;
    const caller: Caller = { orgId: grant.orgId, keyId: grant.keyId, keyKind: grant.kind, store: grant.store, features: grant.features, relayed };
    res.locals.caller = caller;
    next();
  };
}

/** The authenticated caller of a request that passed `authenticate`. */
export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}
