import type { RequestHandler } from 'express';

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

/**
 * Hands a request to `routes` only when its path begins with one of the
 * segments those routes serve. Every route module is a Router of its own, and
 * each request walked all of them, matching every route's pattern in turn: on
 * a busy upstream that walk cost more than the database.
 */
export function forSegments(segments: readonly string[], routes: RequestHandler): RequestHandler {
  const served = new Set(segments);
  return (req, res, next) => {
    if (served.has(firstSegment(req.url))) return routes(req, res, next);
    next();
  };
}
