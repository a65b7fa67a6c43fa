import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { Health } from '../../shared/api/system.js';
import { ownHostCheck } from '../security/local-guard.js';
import type { LocalNames } from '../security/local-names.js';
import { SECURITY_HEADERS } from '../security/security-headers.js';
import type { Caller } from '../services/caller.js';
import type { OrganizationService } from '../services/organizations.js';
import type { ProductService } from '../services/products.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { callerFromHeader } from './auth.js';
import { COMPRESS_THRESHOLD_BYTES } from './compress-answers.js';
import { readsNow } from './group-commit.js';
import { allows, PERMISSIONS } from './permissions.js';
import { logRequest } from './request-log.js';
import { productAnswer, productPageAnswer } from './routes/products.js';
import { writeKeyInTheClear } from './write-key-transport.js';

export interface HotReadDeps {
  /** Where the API is mounted, `/api/v1`. */
  prefix: string;
  products: ProductService;
  organizations: OrganizationService;
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

/** Ids and codes taken here: those a URL carries as they are, so no decoding can read them differently from the router. */
const PLAIN = /^[A-Za-z0-9._~-]+$/;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The reads a store makes most, a product by id, a barcode lookup and
 * `/health`, answered straight from the request before Express sees it.
 * Express's own routing, request and answer objects cost such a read about
 * two thirds of its CPU; here it passes the same checks (own host, the open
 * group of writes, the key, write keys over TLS, the key kind's permission)
 * through the functions the middlewares use, and gets the same answer from
 * the same route functions, with the same headers and log line.
 *
 * Anything off that common path is left to Express, having written nothing:
 * another method or spelling of the URL, a query beyond `barcode`, an
 * `Origin` (CORS), a read that must wait for a group, a key that is missing,
 * unknown or not allowed, a product not found or any other error, and an
 * answer large enough to compress for a client that accepts it. Express
 * then answers as it answers everything, refusals and errors included.
 */
export function hotReads(deps: HotReadDeps): HotReads {
  const ownHost = ownHostCheck(deps.localNames);
  const productsPath = `${deps.prefix}/products`;
  const healthPath = `${deps.prefix}/health`;
  const byIdAllowed = PERMISSIONS['GET /products/{productId}']!;
  const listAllowed = PERMISSIONS['GET /products']!;
  const fixedHeaders = SECURITY_HEADERS.flat();

  const callerOf = (req: IncomingMessage): Caller | undefined => {
    const caller = callerFromHeader(deps.organizations, req.headers.authorization, req.headers[SYNC_ACKNOWLEDGED_HEADER.toLowerCase()] !== undefined);
    return 'refused' in caller || writeKeyInTheClear(caller.keyKind, req.socket) ? undefined : caller;
  };
  const allowed = (caller: Caller, operation: typeof byIdAllowed) => !deps.checkPermissions || allows(operation, caller.keyKind);

  /** The answer to a hot read, or undefined to leave the request to Express. */
  const answerOf = (req: IncomingMessage, url: string): unknown => {
    if (url === healthPath) return deps.health();
    if (url.startsWith(`${productsPath}/`)) {
      const id = url.slice(productsPath.length + 1);
      const caller = PLAIN.test(id) ? callerOf(req) : undefined;
      return caller && allowed(caller, byIdAllowed) ? productAnswer(deps.products, caller, id) : undefined;
    }
    if (url.startsWith(`${productsPath}?barcode=`)) {
      const barcode = url.slice(productsPath.length + 9);
      const caller = PLAIN.test(barcode) ? callerOf(req) : undefined;
      return caller && allowed(caller, listAllowed) ? productPageAnswer(deps.products, caller, { barcode }) : undefined;
    }
    return undefined;
  };

  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || !url.startsWith(deps.prefix) || req.headers.origin !== undefined) return false;
    const started = performance.now();
    if (!ownHost(req.headers.host, req.socket.localAddress)) return false;
    if (deps.groups && !readsNow(deps.groups, false)) return false;
    let answer: unknown;
    try {
      answer = answerOf(req, url);
    } catch {
      // A product not found, a query refused, a database error: Express answers it again, in the shape every error has.
      return false;
    }
    if (answer === undefined) return false;
    const body = JSON.stringify(answer);
    const length = Buffer.byteLength(body);
    // What compressJsonAnswers does: a client that accepts an encoding is told the answer varies with it.
    const acceptsEncoding = req.headers['accept-encoding'] !== undefined;
    if (acceptsEncoding && length >= COMPRESS_THRESHOLD_BYTES) return false;
    const headers = [...fixedHeaders, 'Content-Type', JSON_TYPE, 'Content-Length', String(length)];
    if (acceptsEncoding) headers.push('Vary', 'Accept-Encoding');
    res.writeHead(200, headers);
    res.end(body);
    logRequest(deps.logger, 'GET', url.split('?', 1)[0]!, 200, started);
    return true;
  };
}
