import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ParsedUrlQuery } from 'node:querystring';
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
import { doneOnAnswer } from './group-commit.js';
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
  /** The app's own query parser (`app.get('query parser fn')`), so that a query reads the same both ways. */
  parseQuery: (query: string) => ParsedUrlQuery;
  /** Takes a read that waited for the disk and then turned out not to be a hot one (the app). */
  fallback: RequestListener;
}

/** Request handler that answers a request and returns true, or returns false having written nothing. */
export type HotReads = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Ids taken here: those a URL carries as they are, so no decoding can read them differently from the router. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;
const JSON_TYPE = 'application/json; charset=utf-8';
/** Headers that make an answer depend on what the client holds (`If-None-Match: *` is a 304 through Express): Express answers those. */
const CONDITIONAL_HEADERS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'] as const;
const conditional = (req: IncomingMessage) => CONDITIONAL_HEADERS.some((name) => req.headers[name] !== undefined);

/** A read taken here: whether it is a change feed's page, and its answer, undefined to leave it to Express. */
interface HotRead {
  changeFeed: boolean;
  answer(req: IncomingMessage): unknown;
}

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
 * A read that must wait for the disk (as `readsAfterCommit` makes it: while
 * a group of writes is open or being flushed) waits here, then runs before
 * the next group opens: on a hub taking a sale every few milliseconds, most
 * of the stores' pulls arrive while a group is open or flushing.
 *
 * Anything off that common path is left to Express, having written nothing:
 * another method or spelling of the URL (an absolute-form target, a
 * `#fragment`), an `Origin` (CORS), a conditional header, a key that is
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

  /** The hot read a URL asks for, or undefined to leave the request to Express. */
  const readOf = (url: string): HotRead | undefined => {
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (path === healthPath) return { changeFeed: false, answer: () => deps.health() };
    if (path.startsWith(productPath)) {
      const id = path.slice(productPath.length);
      if (mark !== -1 || !PLAIN.test(id)) return undefined;
      return {
        changeFeed: false,
        answer: (req) => {
          const caller = callerOf(req, byIdAllowed);
          if (!caller) return undefined;
          const answer = productAnswer(services.products, caller, id);
          return new Tagged(answer, entityTag(answer));
        },
      };
    }
    const read = path.startsWith(deps.prefix) ? collections.get(path.slice(deps.prefix.length)) : undefined;
    if (!read) return undefined;
    const query = mark === -1 ? {} : deps.parseQuery(url.slice(mark + 1));
    return {
      changeFeed: query.updatedSince !== undefined,
      answer: (req) => {
        const caller = callerOf(req, read.allowed);
        if (!caller) return undefined;
        refuseBeyondHorizon(deps.horizons, caller.orgId, path.slice(deps.prefix.length), query.updatedSince);
        return read.answer(caller, query);
      },
    };
  };

  /** Answers the read and returns true, or returns false having written nothing. */
  const respond = (req: IncomingMessage, res: ServerResponse, url: string, read: HotRead, started: number): boolean => {
    let answer: unknown;
    try {
      answer = read.answer(req);
    } catch {
      // Every error is Express's to answer, in the shape every error has.
      return false;
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
    if (req.method !== 'GET' || !url.startsWith(deps.prefix) || url.includes('#') || req.headers.origin !== undefined || conditional(req)) return false;
    if (!ownHost(req.headers.host, req.socket.localAddress)) return false;
    const read = readOf(url);
    if (!read) return false;
    const started = performance.now();
    const waits = deps.groups?.whenReadable(read.changeFeed, (done) => {
      if (respond(req, res, url, read, started)) return done();
      // Express reads what it answers before answering, as this read would have.
      doneOnAnswer(res, done);
      deps.fallback(req, res);
    });
    return waits === true || respond(req, res, url, read, started);
  };
}
