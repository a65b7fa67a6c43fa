import type { RequestHandler } from 'express';
import { CONTENT_SECURITY_POLICY_DIRECTIVES } from './content-security-policy.js';

/**
 * Security headers on every answer. The server speaks plain HTTP on a store
 * network, so no HSTS; no referrer leaves the kiosk, no page may frame it.
 * The values never change, so they are built once and set in one pass.
 */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  ['Content-Security-Policy', Object.entries(CONTENT_SECURITY_POLICY_DIRECTIVES).map(([name, sources]) => `${name} ${sources.join(' ')}`).join(';')],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'DENY'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

/**
 * Sets the security headers. Answers under `shareablePath` (product images)
 * may also be shown by other origins, such as the web apps listed in
 * `ALLOWED_ORIGINS`; the path is matched as a router mount would match it.
 */
export function securityHeaders(shareablePath: string): RequestHandler {
  const shareable = new RegExp(`^${shareablePath.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:/|$)`, 'i');
  return (req, res, next) => {
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    if (shareable.test(req.path)) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    next();
  };
}
