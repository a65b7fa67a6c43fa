import type { IncomingMessage, ServerResponse } from 'node:http';
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
}

/** Request handler that answers a request and returns true, or returns false having written nothing. */
export type HotReads = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Ids taken here: those a URL carries as they are, so no decoding can read them differently from the router. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;
const JSON_TYPE = 'application/json; charset=utf-8';

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
 * Anything off that common path is left to Express, having written nothing:
 * another method or spelling of the URL, an `Origin` (CORS), a read that
 * must wait for a group, a key that is missing, unknown or not allowed, and
 * every error (a product not found, a query refused, a feed beyond its
 * horizon). Express then answers it as it answers everything.
 */
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
  const readsAtOnce = (changeFeed: boolean) => !deps.groups || readsNow(deps.groups, changeFeed);

  /** The answer to a hot read, or undefined to leave the request to Express. */
  const answerOf = (req: IncomingMessage, url: string): unknown => {
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    if (path === healthPath) return readsAtOnce(false) ? deps.health() : undefined;
    if (path.startsWith(productPath)) {
      const id = path.slice(productPath.length);
      const caller = mark === -1 && PLAIN.test(id) && readsAtOnce(false) ? callerOf(req, byIdAllowed) : undefined;
      return caller && productAnswer(services.products, caller, id);
    }
    const read = path.startsWith(deps.prefix) ? collections.get(path.slice(deps.prefix.length)) : undefined;
    if (!read) return undefined;
    // The parser Express's default "simple" query parser is.
    const query = mark === -1 ? {} : parseQueryString(url.slice(mark + 1));
    const caller = readsAtOnce(query.updatedSince !== undefined) ? callerOf(req, read.allowed) : undefined;
    if (!caller) return undefined;
    refuseBeyondHorizon(deps.horizons, caller.orgId, path.slice(deps.prefix.length), query.updatedSince);
    return read.answer(caller, query);
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !url.startsWith(deps.prefix) || req.headers.origin !== undefined) return false;
    const started = performance.now();
    if (!ownHost(req.headers.host, req.socket.localAddress)) return false;
    let answer: unknown;
    try {
      answer = answerOf(req, url);
    } catch {
      // Every error is Express's to answer, in the shape every error has.
      return false;
    }
    if (answer === undefined) return false;
    const body = JSON.stringify(answer);
    const length = Buffer.byteLength(body);
    res.once('finish', () => logRequest(deps.logger, 'GET', url.split('?', 1)[0]!, res.statusCode, started));
    if (req.headers['accept-encoding'] === undefined || length < COMPRESS_THRESHOLD_BYTES) {
      const headers = [...fixedHeaders, 'Content-Type', JSON_TYPE, 'Content-Length', String(length)];
      // As compressJsonAnswers would: a client that accepts an encoding is told the answer varies with it.
      if (req.headers['accept-encoding'] !== undefined) headers.push('Vary', 'Accept-Encoding');
      res.writeHead(200, headers);
      res.end(body);
      return true;
    }
    compress(req, res, () => {
      for (let i = 0; i < fixedHeaders.length; i += 2) res.setHeader(fixedHeaders[i]!, fixedHeaders[i + 1]!);
      res.setHeader('Content-Type', JSON_TYPE);
      res.setHeader('Content-Length', length);
      res.end(body);
    });
    return true;
  };
}
