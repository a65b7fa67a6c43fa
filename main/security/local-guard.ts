import cors from 'cors';
import type { RequestHandler } from 'express';
import { sendStandardError } from '../http/errors.js';
import { hostNameOf, isAllowedOrigin, isOwnHost, normalizeOrigin, type LocalNames } from './local-names.js';

/** Bound on remembered `Host` values: a client can send endless spellings of one name (ports, case). */
const KNOWN_HOSTS_LIMIT = 64;

/**
 * Whether a request's `Host` names this server. Host values found to name it
 * by the list alone are remembered, so that a request with one of them skips
 * parsing; a value accepted for the address the connection arrived on is
 * checked each time, since that depends on the socket.
 */
export function ownHostCheck(names: LocalNames): (hostHeader: string | undefined, localAddress: string | undefined) => boolean {
  const knownHosts = new Set<string>();
  return (hostHeader, localAddress) => {
    if (hostHeader === undefined) return false;
    if (knownHosts.has(hostHeader)) return true;
    if (!isOwnHost(names, hostHeader, localAddress)) return false;
    if (names.hosts.has(hostNameOf(hostHeader) ?? '')) {
      if (knownHosts.size >= KNOWN_HOSTS_LIMIT) knownHosts.clear();
      knownHosts.add(hostHeader);
    }
    return true;
  };
}

/**
 * Refuses (403, standard shape) a request whose `Host` does not name this
 * server or whose `Origin` is neither this server nor a listed one, then adds
 * CORS headers for listed origins only.
 */
export function localGuard(names: LocalNames): RequestHandler {
  const ownHost = ownHostCheck(names);
  const corsHeaders = cors({
    origin: true,
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
    exposedHeaders: ['Idempotent-Replayed'],
    maxAge: 600,
  });
  return (req, res, next) => {
    const host = req.headers.host;
    if (!ownHost(host, req.socket.localAddress)) {
      sendStandardError(req, res, 403, `Host ${JSON.stringify(host ?? '')} is not a name of this server; add it to ALLOWED_HOSTS to serve it`);
      return;
    }
    const origin = req.headers.origin;
    // Most requests (scripts, scales, the kiosk's own reads) carry no Origin and need no CORS headers.
    if (origin === undefined) return next();
    if (!isAllowedOrigin(names, origin, normalizeOrigin(`${req.protocol}://${host}`) ?? '')) {
      sendStandardError(req, res, 403, `Origin ${JSON.stringify(origin)} may not call this server; add it to ALLOWED_ORIGINS to allow it`);
      return;
    }
    if (names.corsOrigins.has(normalizeOrigin(origin) ?? '')) corsHeaders(req, res, next);
    else next();
  };
}
