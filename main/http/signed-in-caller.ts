import type { Request } from 'express';
import type { Caller } from '../services/caller.js';
import { NotAllowed, Unauthorized } from '../services/errors.js';
import type { StaffSignIns } from '../services/staff-sign-ins.js';
import { STAFF_SIGN_IN_HOURS } from '../services/staff-sign-ins.js';
import { normalizeOrigin } from '../security/local-names.js';
import { READ_METHODS } from './read-methods.js';

/**
 * The caller a staff page's sign-in cookie stands for. A browser sends a
 * cookie with whatever request a page makes, so a write counts only when it
 * comes from this server's own page: its `Origin` is this server's, not
 * merely one listed in ALLOWED_ORIGINS (which the local guard lets through).
 */
export function signedInCaller(signIns: StaffSignIns, req: Request, token: string): Caller {
  if (!READ_METHODS.has(req.method)) {
    const origin = req.headers.origin;
    const own = normalizeOrigin(`${req.protocol}://${req.headers.host ?? ''}`);
    if (origin === undefined || own === undefined || normalizeOrigin(origin) !== own) {
      throw new NotAllowed(
        `A write made with the staff page's sign-in must come from this server's own page (Origin ${JSON.stringify(origin ?? '')} is not ${JSON.stringify(own ?? '')}): other programs send their key in the Authorization header`,
      );
    }
  }
  const caller = signIns.callerOf(token);
  if (!caller) {
    throw new Unauthorized(
      `The staff page's sign-in has ended (it lasts ${STAFF_SIGN_IN_HOURS} hours, and ends at sign-out or when its key is revoked): sign in again with the key`,
    );
  }
  return caller;
}
