import cors from 'cors';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { sendStandardError } from '../http/errors.js';
import { CONTENT_SECURITY_POLICY_DIRECTIVES } from './content-security-policy.js';
import { isAllowedOrigin, isOwnHost, normalizeOrigin, type LocalNames } from './local-names.js';

/**
 * Security headers on every answer. The server speaks plain HTTP on a store
 * network, so no HSTS; no referrer leaves the kiosk.
 */
export const securityHeaders: RequestHandler = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY_DIRECTIVES },
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
});

/** Product images may be shown by the web apps listed in `ALLOWED_ORIGINS`. */
export const shareableResource: RequestHandler = helmet.crossOriginResourcePolicy({ policy: 'cross-origin' });

/**
 * Refuses (403, standard shape) a request whose `Host` does not name this
 * server or whose `Origin` is neither this server nor a listed one, then adds
 * CORS headers for listed origins only.
 */
export function localGuard(names: LocalNames): RequestHandler[] {
  const refuse: RequestHandler = (req, res, next) => {
    if (!isOwnHost(names, req.headers.host, req.socket.localAddress)) {
      sendStandardError(req, res, 403, `Host ${JSON.stringify(req.headers.host ?? '')} is not a name of this server; add it to ALLOWED_HOSTS to serve it`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !isAllowedOrigin(names, origin, normalizeOrigin(`${req.protocol}://${req.headers.host}`) ?? '')) {
      sendStandardError(req, res, 403, `Origin ${JSON.stringify(origin)} may not call this server; add it to ALLOWED_ORIGINS to allow it`);
      return;
    }
    next();
  };
  const corsHeaders = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && names.corsOrigins.has(normalizeOrigin(origin) ?? '')),
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Idempotent-Replayed'],
    maxAge: 600,
  });
  return [refuse, corsHeaders];
}
