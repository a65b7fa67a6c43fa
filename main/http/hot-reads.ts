import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQueryString, type ParsedUrlQuery } from 'node:querystring';
import type { Logger } from 'pino';
import type { Health } from '../../shared/api/system.js';
import { ownHostCheck } from '../security/local-guard.js';
import type { LocalNames } from '../security/local-names.js';
import { SECURITY_HEADERS } from '../security/security-headers.js';
import type { Caller } from '../services/caller.js';
import type { Services } from '../services/index.js';
import type { FeedHorizonStore } from '../storage/feed-horizons.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { compressJsonAnswers, COMPRESS_THRESHOLD_BYTES } from './compress-answers.js';
import { refuseBeyondHorizon } from './feed-horizon.js';
import { readsNow } from './group-commit.js';
import { laneCaller } from './lane-caller.js';
import { PERMISSIONS, type Allowed } from './permissions.js';
import { logRequest } from './request-log.js';
import { categoryPageAnswer } from './routes/categories.js';
import { entityTag } from './product-etag.js';
import { productAnswer, productPageAnswer } from './routes/products.js';
import { storePageAnswer } from './routes/stores.js';
import { supplierPageAnswer } from './routes/suppliers.js';

export interface HotReadDeps {
  /** Where the API is mounted, `/api/v1`. */
  prefix: string;
  services: Pick<Services, 'products' | 'categories' | 'suppliers' | 'retailStores' | 'organizations'>;
  horizons: FeedHorizonStore;
  health: () => Health;
  /** The group commit whose open group a read waits for; unset when writes commit alone. */
  groups: GroupCommit | undefined;
  localNames: LocalNames;
  logger: Logger;
  /** False only where the benchmark leaves out the check of key kinds (AppDeps.withoutPermissionCheck). */
  checkPermissions: boolean;
  /** Takes a read that waited for a commit and then turned out not to be a hot one (the app). */
  fallback: RequestListener;
}

/** Request handler that answers a request and returns true, or returns false having written nothing. */
export type HotReads = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Ids taken here: those a URL carries as they are, so no decoding can read them differently from the router. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;
const JSON_TYPE = 'application/json; charset=utf-8';
/** What `answerOf` gives for a read that must first wait for the open group of writes. */
const AFTER_COMMIT = Symbol('after commit');

interface CollectionRead {
  allowed: Allowed;
  answer(caller: Caller, query: ParsedUrlQuery): unknown;
}

/**
 * The reads a store PC and its devices make most, answered straight from the
 * request before Express sees it: a product by id, the lists of products
 * (barcode lookups, searches, pages), categories, suppliers and stores with
 * any query (a store's pulls from its upstream among them), and `/health`.
 * Express's own routing, request and answer objects cost such a read about
 * two thirds of its CPU; here it passes the same checks (own host, the open
 * group of writes, the key, write keys over TLS, the key kind's permission,
 * the change feed's horizon) through the functions the middlewares use, and
 * gets the same answer from the same route functions, with the same headers,
 * compression and log line.
 *
 * A read that must wait for the open group of writes (as `readsAfterCommit`
 * makes it) waits here, then runs as any other: on a hub taking a sale
 * every few milliseconds, most of the stores' pulls arrive while a group is
 * open or flushing.
 *
 * Anything off that common path is left to Express, having written nothing:
 * another method or spelling of the URL, an `Origin` (CORS), a key that is
 * missing, unknown or not allowed, and every error (a product not found, a
 * query refused, a feed beyond its horizon). Express then answers it as it
 * answers everything.
 */
/** An answer with the strong ETag the Express route sends with it (a product by id). */
class Tagged {
  constructor(
    readonly answer: unknown,
    readonly tag: string,
  ) {}
}

export function hotReads(deps: HotReadDeps): HotReads {
  const { services } = deps;
  const ownHost = ownHostCheck(deps.localNames);
  const compress = compressJsonAnswers() as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const healthPath = `${deps.prefix}/health`;
  const productPath = `${deps.prefix}/products/`;
  const byIdAllowed = PERMISSIONS['GET /products/{productId}']!;
  const collection = (path: string, answer: CollectionRead['answer']): [string, CollectionRead] => [path, { allowed: PERMISSIONS[`GET ${path}`]!, answer }];
  const collections = new Map<string, CollectionRead>([
    collection('/products', (caller, query) => productPageAnswer(services.products, caller, query)),
    collection('/categories', (caller, query) => categoryPageAnswer(services.categories, caller, query)),
    collection('/suppliers', (caller, query) => supplierPageAnswer(services.suppliers, caller, query)),
    collection('/stores', (caller, query) => storePageAnswer(services.retailStores, caller, query)),
  ]);
  const fixedHeaders = SECURITY_HEADERS.flat();

  const callerOf = laneCaller(services.organizations, deps.checkPermissions);
  /** Once the read waited for a commit, it runs whatever group is open then, as `readsAfterCommit` lets it. */
  const readsAtOnce = (waited: boolean, changeFeed: boolean) => waited || !deps.groups || readsNow(deps.groups, changeFeed);

  /** The answer to a hot read, `AFTER_COMMIT` to ask again once the open group committed, or undefined to leave the request to Express. */
  const answerOf = (req: IncomingMessage, url: string, waited: boolean): unknown => {
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (path === healthPath) return readsAtOnce(waited, false) ? deps.health() : AFTER_COMMIT;
    if (path.startsWith(productPath)) {
      const id = path.slice(productPath.length);
      if (mark !== -1 || !PLAIN.test(id)) return undefined;
      if (!readsAtOnce(waited, false)) return AFTER_COMMIT;
      const caller = callerOf(req, byIdAllowed);
      if (!caller) return undefined;
      const answer = productAnswer(services.products, caller, id);
      return new Tagged(answer, entityTag(answer));
    }
    const read = path.startsWith(deps.prefix) ? collections.get(path.slice(deps.prefix.length)) : undefined;
    if (!read) return undefined;
    // The parser Express's default "simple" query parser is.
    const query = mark === -1 ? {} : parseQueryString(url.slice(mark + 1));
    if (!readsAtOnce(waited, query.updatedSince !== undefined)) return AFTER_COMMIT;
    const caller = callerOf(req, read.allowed);
    if (!caller) return undefined;
    refuseBeyondHorizon(deps.horizons, caller.orgId, path.slice(deps.prefix.length), query.updatedSince);
    return read.answer(caller, query);
  };

  /** Answers the read and returns true, or returns false having written nothing. */
  const respond = (req: IncomingMessage, res: ServerResponse, url: string, started: number, waited: boolean): boolean => {
    let answer: unknown;
    try {
      answer = answerOf(req, url, waited);
    } catch {
      // Every error is Express's to answer, in the shape every error has.
      return false;
    }
    if (answer === AFTER_COMMIT) {
      const afterCommit = () => {
        if (!respond(req, res, url, started, true)) deps.fallback(req, res);
      };
      return deps.groups!.afterCommit(afterCommit) || respond(req, res, url, started, true);
    }
    if (answer === undefined) return false;
    const tag = answer instanceof Tagged ? answer.tag : undefined;
    const body = JSON.stringify(answer instanceof Tagged ? answer.answer : answer);
    const length = Buffer.byteLength(body);
    res.once('finish', () => logRequest(deps.logger, 'GET', url.split('?', 1)[0]!, res.statusCode, started));
    if (req.headers['accept-encoding'] === undefined || length < COMPRESS_THRESHOLD_BYTES) {
      // In the order Express writes them: the route's ETag before the type and length.
      const headers = [...fixedHeaders, ...(tag === undefined ? [] : ['ETag', tag]), 'Content-Type', JSON_TYPE, 'Content-Length', String(length)];
      // As compressJsonAnswers would: a client that accepts an encoding is told the answer varies with it.
      if (req.headers['accept-encoding'] !== undefined) headers.push('Vary', 'Accept-Encoding');
      res.writeHead(200, headers);
      res.end(body);
      return true;
    }
    compress(req, res, () => {
      for (let i = 0; i < fixedHeaders.length; i += 2) res.setHeader(fixedHeaders[i]!, fixedHeaders[i + 1]!);
      if (tag !== undefined) res.setHeader('ETag', tag);
      res.setHeader('Content-Type', JSON_TYPE);
      res.setHeader('Content-Length', length);
      res.end(body);
    });
    return true;
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !url.startsWith(deps.prefix) || req.headers.origin !== undefined) return false;
    if (!ownHost(req.headers.host, req.socket.localAddress)) return false;
    return respond(req, res, url, performance.now(), false);
  };
}
