import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type Caller } from '../services/caller.js';
import { Forbidden } from '../services/errors.js';
import type { OrganizationService } from '../services/organizations.js';
import type { StaffSignIns } from '../services/staff-sign-ins.js';
import { signInTokenOf } from './sign-in-cookie.js';
import { signedInCaller } from './signed-in-caller.js';

/**
 * The caller an `Authorization: Bearer <key>` header names, or why it names
 * none. Checked on every request (from memory while nothing changed the keys,
 * see services/key-grants.ts), so a key revoked with the CLI or
 * `DELETE /keys/{id}` is refused at once. What the key's kind may do is
 * `enforcePermissions`' job. `relaying`: the request carries the header a
 * store's sync worker sends with the writes it relays.
 */
export function callerFromHeader(organizations: OrganizationService, header: string | undefined, relaying: boolean): Caller | { refused: string } {
  if (!header) return { refused: 'no Authorization header' };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return { refused: 'Authorization header is not "Bearer <key>"' };
  const grant = organizations.authenticate(match[1]);
  if (!grant) return { refused: 'unknown or revoked key' };
  // Only keys that may sync relay a store's writes; the header from any other key is ignored.
  const relayed = grant.kind === 'write' && relaying;
  return { orgId: grant.orgId, keyId: grant.keyId, keyKind: grant.kind, store: grant.store, features: grant.features, relayed };
}

/**
 * Resolves the request's key to its caller (`callerFromHeader`), or refuses it
 * with 403. A request without `Authorization` that carries the staff page's
 * sign-in cookie acts as the key that signed in (`signedInCaller`); an ended
 * sign-in is a 401.
 */
export function authenticate(organizations: OrganizationService, signIns: StaffSignIns): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const token = req.headers.authorization === undefined ? signInTokenOf(req) : undefined;
    if (token !== undefined) {
      const signedIn = signedInCaller(signIns, req, token);
      if (signedIn.keyId) organizations.noteUse(signedIn.keyId);
      res.locals.caller = signedIn;
      res.locals.signInToken = token;
      return next();
    }
    const caller = callerFromHeader(organizations, req.headers.authorization, req.get(SYNC_ACKNOWLEDGED_HEADER) !== undefined);
    if ('refused' in caller) throw new Forbidden(caller.refused);
    res.locals.caller = caller;
    next();
  };
}

/** The authenticated caller of a request that passed `authenticate`. */
export function callerOf(res: Response): Caller {
  return res.locals.caller as Caller;
}

/** The sign-in token a request was authenticated by, or undefined when it came with a key. */
export function signInTokenUsed(res: Response): string | undefined {
  return res.locals.signInToken as string | undefined;
}
