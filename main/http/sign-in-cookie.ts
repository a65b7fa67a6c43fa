import type { Request, Response } from 'express';
import { STAFF_SIGN_IN_HOURS, type OpenedSignIn } from '../services/staff-sign-ins.js';

/** The cookie that carries a staff page's sign-in; script on the page cannot read it (HttpOnly). */
export const SIGN_IN_COOKIE = 'staff_sign_in';

/** The sign-in token a request's `Cookie` header carries, if any. */
export function signInTokenOf(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === SIGN_IN_COOKIE) return part.slice(at + 1).trim() || undefined;
  }
  return undefined;
}

/**
 * `SameSite=Strict`, so no other site's page makes the browser send it.
 * `Secure` over HTTPS only: on this PC over plain `http://localhost` a
 * browser would not send it back.
 */
const cookieOptions = (req: Request) => ({ httpOnly: true, sameSite: 'strict', path: '/', secure: req.secure }) as const;

export function setSignInCookie(req: Request, res: Response, opened: OpenedSignIn): void {
  res.cookie(SIGN_IN_COOKIE, opened.token, { ...cookieOptions(req), maxAge: STAFF_SIGN_IN_HOURS * 60 * 60 * 1000 });
}

export function clearSignInCookie(req: Request, res: Response): void {
  res.clearCookie(SIGN_IN_COOKIE, cookieOptions(req));
}
