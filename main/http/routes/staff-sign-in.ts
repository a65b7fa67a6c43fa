import { Router } from 'express';
import { NotAllowed } from '../../services/errors.js';
import type { StaffSignIns } from '../../services/staff-sign-ins.js';
import { callerOf, signInTokenUsed } from '../auth.js';
import { clearSignInCookie, setSignInCookie, signInTokenOf } from '../sign-in-cookie.js';

/**
 * `/staff/sign-in`: the staff page trades the key typed once for a cookie
 * that stands for it for a working day, so the key does not stay in the page
 * and a new tab is signed in already. Mounted before the `Idempotency-Key`
 * step: the answer sets a secret, which is never kept for a replay.
 */
export function staffSignInRoutes(signIns: StaffSignIns): Router {
  const router = Router();

  router.post('/staff/sign-in', (req, res) => {
    if (signInTokenUsed(res) !== undefined) {
      throw new NotAllowed('A sign-in does not extend itself: sign in with the key in the Authorization header');
    }
    const replaced = signInTokenOf(req);
    if (replaced !== undefined) signIns.end(replaced);
    const opened = signIns.open(callerOf(res));
    setSignInCookie(req, res, opened);
    res.status(201).json({ success: true, expiresAt: opened.expiresAt });
  });

  router.delete('/staff/sign-in', (req, res) => {
    const token = signInTokenOf(req);
    if (token !== undefined) signIns.end(token);
    clearSignInCookie(req, res);
    res.json({ success: true });
  });

  return router;
}
