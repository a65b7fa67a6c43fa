import type { RequestHandler } from 'express';
import { inOrder } from './in-order.js';

/** The first segment of a path relative to the API base, lower-cased as express matches routes: `orders` of `/Orders/1?x`. */
function firstSegment(url: string): string {
  let end = 1;
  while (end < url.length) {
    const c = url.charCodeAt(end);
    if (c === 47 /* / */ || c === 63 /* ? */) break;
    end += 1;
  }
  return url.slice(1, end).toLowerCase();
}

/** Route modules and the first path segments they serve. */
export type SegmentRoutes = readonly (readonly [segments: readonly string[], routes: RequestHandler])[];

/**
 * Hands a request only to the route modules that serve its path's first
 * segment, in the order listed, from a table built once. Every route module
 * is a Router of its own, and each request walked all of them, matching every
 * route's pattern in turn: on a busy upstream that walk cost more than the
 * database. One table instead of a middleware per module also spares each
 * request the Router's step past every module it does not want.
 */
export function bySegment(table: SegmentRoutes): RequestHandler {
  const modules = new Map<string, RequestHandler[]>();
  for (const [segments, routes] of table) {
    for (const segment of segments) modules.set(segment, [...(modules.get(segment) ?? []), routes]);
  }
  const served = new Map([...modules].map(([segment, routes]) => [segment, inOrder(...routes)]));
  return (req, res, next) => {
    const routes = served.get(firstSegment(req.url));
    if (routes) return routes(req, res, next);
    next();
  };
}
