import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ownHostCheck } from '../security/local-guard.js';
import type { LocalNames } from '../security/local-names.js';
import { SECURITY_HEADERS } from '../security/security-headers.js';
import type { Caller } from '../services/caller.js';
import type { OrganizationService } from '../services/organizations.js';
import { compressJsonAnswers } from './compress-answers.js';
import { notFoundHandler } from './errors.js';
import { inOrder } from './in-order.js';
import { laneCaller } from './lane-caller.js';
import { PERMISSIONS } from './permissions.js';
import { logRequest } from './request-log.js';

export interface HotWriteDeps {
  /** Where the API is mounted, `/api/v1`. */
  prefix: string;
  /** The app whose request and answer objects the writes get, as its own routes do. */
  app: Express;
  organizations: OrganizationService;
  localNames: LocalNames;
  logger: Logger;
  /** False only where the benchmark leaves out the check of key kinds (AppDeps.withoutPermissionCheck). */
  checkPermissions: boolean;
  /** The steps every write passes in the app (body parser, group of writes, `Idempotency-Key`, sync base, sync scheduling), the same functions. */
  writeSteps: readonly RequestHandler[];
  /** The app's error handlers in the order it runs them: the API's, then the last one. */
  errorHandlers: readonly [ErrorRequestHandler, ErrorRequestHandler];
  /** The routes taken here, by operation (`POST /orders`), each its app route's handler. */
  routes: Readonly<Record<string, RequestHandler>>;
}

/** Request handler that takes a request and returns true, or returns false having written nothing. */
export type HotWrites = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * The writes a chain's upstream takes most, a store PC's pushed sale and its
 * heartbeat, run without Express's routing: on a hub, walking the app's
 * layers to them cost a pushed sale about a tenth of its CPU. Everything a write
 * relies on stays as it is, because it is the same code: the request passes
 * the checks the app's first middlewares make (own host, the key, write keys
 * over TLS, the key kind's permission) through their shared functions, gets
 * the app's request and answer objects as `app.handle` gives them, with the
 * URL as the API router sees it, and then runs the app's write steps and
 * route handler themselves, chained by `inOrder` as in the app. An error
 * anywhere goes to the app's error handlers, inside the same commit.
 *
 * Only exactly the route's path is taken, without an `Origin` (CORS) and
 * with a key allowed to call it; anything else is left to Express, having
 * written nothing.
 */
export function hotWrites(deps: HotWriteDeps): HotWrites {
  const ownHost = ownHostCheck(deps.localNames);
  const callerOf = laneCaller(deps.organizations, deps.checkPermissions);
  const compress = compressJsonAnswers();
  const [apiErrors, lastErrors] = deps.errorHandlers;
  const routes = new Map(
    Object.entries(deps.routes).map(([operation, handler]) => {
      const path = operation.slice(operation.indexOf(' ') + 1);
      const allowed = PERMISSIONS[operation];
      if (!operation.startsWith('POST ') || allowed === undefined) throw new Error(`${operation} is not a write the permission table names`);
      return [`${deps.prefix}${path}`, { path, allowed, steps: inOrder(...deps.writeSteps, handler) }] as const;
    }),
  );

  /** As the app ends a request: an error goes to its error handlers, in their order; a request no step answered is a 404. */
  const finish = (req: Request, res: Response) => (err?: unknown) => {
    const noMore = () => undefined;
    if (err === undefined) return void notFoundHandler(req, res, noMore);
    try {
      apiErrors(err, req, res, (passed?: unknown) => lastErrors(passed, req, res, noMore));
    } catch (thrown) {
      lastErrors(thrown, req, res, noMore);
    }
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'POST' || req.headers.origin !== undefined) return false;
    const route = routes.get(url);
    if (!route) return false;
    const started = performance.now();
    if (!ownHost(req.headers.host, req.socket.localAddress)) return false;
    let caller: Caller | undefined;
    try {
      caller = callerOf(req, route.allowed);
    } catch {
      // The key's lookup failed (the disk): Express meets the same failure and answers it in the shape every error has.
      return false;
    }
    if (!caller) return false;

    // As app.handle and the API's router hand a request to their routes.
    const request = Object.setPrototypeOf(req, deps.app.request) as Request;
    const answer = Object.setPrototypeOf(res, deps.app.response) as Response;
    request.res = answer;
    answer.req = request;
    answer.locals = Object.create(null) as Response['locals'];
    answer.locals.caller = caller;
    request.originalUrl = url;
    request.baseUrl = deps.prefix;
    request.url = route.path;
    request.params = {};

    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    res.once('finish', () => logRequest(deps.logger, 'POST', url, res.statusCode, started));
    // Chained as `forWritesOnly` chains them in the app: a throw or `next(err)` goes to the error handlers at once, inside the commit.
    compress(request, answer, () => void route.steps(request, answer, finish(request, answer)));
    return true;
  };
}
