import type { RequestHandler } from 'express';
import type { KeyKind } from '../storage/api-keys.js';
import { Forbidden, NotAllowed } from '../services/errors.js';
import { callerOf } from './auth.js';
import { READ_METHODS } from './read-methods.js';

/** Who may call an operation: these key kinds, or anyone without a key. */
export type Allowed = readonly KeyKind[] | 'public';

const PUBLIC = 'public';
const STAFF: Allowed = ['write'];
const STAFF_READ: Allowed = ['read', 'write'];
const KIOSK: Allowed = ['write', 'kiosk'];
const KIOSK_READ: Allowed = ['read', 'write', 'kiosk'];
const CATALOG_READ: Allowed = ['read', 'write', 'kiosk', 'scale'];

/**
 * Who may do what: every operation of the API (`METHOD /path/template`, as the
 * OpenAPI document names it) with the key kinds allowed to call it. Write keys
 * do everything; read keys read; a kiosk key reads the catalog and its own
 * store and records that store's sales and identity checks (the services keep
 * it to its store); a scale key reads products and categories. A route this
 * table does not name is refused for every key kind but staff's.
 */
export const PERMISSIONS: Readonly<Record<string, Allowed>> = {
  'GET /health': PUBLIC,
  'GET /update': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /images/{file}': PUBLIC,
  'GET /system': STAFF_READ,

  'GET /products': CATALOG_READ,
  'POST /products': STAFF,
  'GET /products/{productId}': CATALOG_READ,
  'POST /products/{productId}': STAFF,
  'DELETE /products/{productId}': STAFF,
  'POST /products/{productId}/image': STAFF,
  'DELETE /products/{productId}/image': STAFF,
  'GET /suppliers': KIOSK_READ,
  'POST /suppliers': STAFF,
  'GET /suppliers/{supplierId}': KIOSK_READ,
  'POST /suppliers/{supplierId}': STAFF,
  'GET /categories': CATALOG_READ,
  'POST /categories': STAFF,
  'GET /categories/{categoryId}': CATALOG_READ,
  'POST /categories/{categoryId}': STAFF,
  'POST /catalog/import': STAFF,
  'GET /catalog/export': STAFF_READ,
  'POST /catalog/columns': STAFF,
  'GET /catalog/columns': STAFF_READ,

  'GET /stores': KIOSK_READ,
  'POST /stores': STAFF,
  'GET /stores/{storeId}': KIOSK_READ,
  'POST /stores/{storeId}': STAFF,

  'GET /orders': KIOSK_READ,
  'POST /orders': KIOSK,
  'GET /orders/{orderId}': KIOSK_READ,
  'POST /orders/{orderId}': STAFF,
  'POST /receipts/{orderId}/print': KIOSK,
  // Printers are registered by staff; a kiosk sees and checks its own store's (the registry keeps it there).
  'POST /printers': STAFF,
  'GET /printers': KIOSK_READ,
  'DELETE /printers/{printerId}': STAFF,
  'POST /printers/{printerId}/check': KIOSK,
  // Terminals are registered by staff; a kiosk sees its own store's. Payments: a kiosk key at its own store (the service keeps it there).
  'POST /terminals': STAFF,
  'GET /terminals': KIOSK_READ,
  'DELETE /terminals/{terminalId}': STAFF,
  'GET /terminals/{terminalId}/totals': STAFF_READ,
  'POST /terminals/{terminalId}/check': KIOSK,
  'POST /payments': KIOSK,
  'GET /payments': KIOSK_READ,
  'GET /payments/{paymentId}': KIOSK_READ,
  'POST /payments/{paymentId}/cancel': KIOSK,
  'POST /payments/{paymentId}/refund': STAFF,
  'GET /reports/daily': STAFF_READ,
  'POST /reports/daily/print': STAFF,

  'GET /identity-logs': STAFF_READ,
  'POST /identity-logs': KIOSK,
  'POST /identity-logs/verdict': KIOSK,
  'GET /identity-logs/blocked': STAFF_READ,
  'POST /identity-logs/blocked': STAFF,
  'GET /identity-logs/blocked/{blockedId}': STAFF_READ,
  'POST /identity-logs/blocked/{blockedId}': STAFF,
  'DELETE /identity-logs/blocked/{blockedId}': STAFF,

  'GET /sync': STAFF_READ,
  'GET /sync/parked': STAFF_READ,
  'POST /sync/parked/{entryId}/retry': STAFF,
  'POST /sync/parked/{entryId}/discard': STAFF,

  // A store PC reports with the upstream write key its sync uses.
  'POST /fleet/heartbeat': STAFF,
  'GET /fleet': STAFF_READ,
  'DELETE /fleet/{device}': STAFF,

  'GET /mail': STAFF,
  'POST /mail/test': STAFF,
  'POST /mail/settings': STAFF,
  'POST /mail/daily': STAFF,
  'GET /alerts': STAFF,

  // Settlements are the owner's: a read key sees them, only a write key makes them or sets the account they pay from.
  'POST /payout-account': STAFF,
  'GET /payout-account': STAFF_READ,
  'POST /settlements': STAFF,
  'GET /settlements': STAFF_READ,
  'GET /settlements/{settlementId}': STAFF_READ,
  'GET /settlements/{settlementId}/payout-file': STAFF_READ,
  'GET /settlements/{settlementId}/statements/{supplierId}': STAFF_READ,
  'POST /settlements/{settlementId}/send': STAFF,

  'GET /keys': STAFF,
  'POST /keys': STAFF,
  'GET /keys/current': CATALOG_READ,
  'DELETE /keys/{keyId}': STAFF,
  // The staff page signs in with a write key, or a read key to look only; the sign-in then acts as that key.
  'POST /staff/sign-in': STAFF_READ,
  'DELETE /staff/sign-in': STAFF_READ,
};

export interface PermissionEntry {
  operation: string;
  allowed: Allowed;
  /** Path segments of the template; null stands for a parameter. */
  segments: (string | null)[];
}

export interface PermissionLookup {
  /** The table's entry for a request, or undefined when the table names no such operation. */
  find(method: string, path: string): PermissionEntry | undefined;
}

/**
 * Matches requests the way express routes them: case-insensitive, a trailing
 * slash ignored, HEAD answered by GET. Literal paths are one map lookup; a
 * template with more literal segments wins over one with fewer, so
 * `/keys/current` is never taken for `/keys/{keyId}`.
 */
export function compilePermissions(table: Readonly<Record<string, Allowed>>): PermissionLookup {
  const exact = new Map<string, PermissionEntry>();
  const templated = new Map<string, PermissionEntry[]>();
  for (const [operation, allowed] of Object.entries(table)) {
    const [method, template] = operation.split(' ') as [string, string];
    const segments = template.toLowerCase().split('/').map((s) => (s.startsWith('{') ? null : s));
    const entry: PermissionEntry = { operation, allowed, segments };
    if (!segments.includes(null)) {
      exact.set(`${method} ${template.toLowerCase()}`, entry);
      continue;
    }
    const bucket = `${method} ${segments.length}`;
    const entries = templated.get(bucket) ?? [];
    entries.push(entry);
    entries.sort((a, b) => literalCount(b) - literalCount(a));
    templated.set(bucket, entries);
  }
  return {
    find(rawMethod, rawPath) {
      const method = rawMethod === 'HEAD' ? 'GET' : rawMethod;
      let path = rawPath.toLowerCase();
      if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
      const hit = exact.get(`${method} ${path}`);
      if (hit) return hit;
      const parts = path.split('/');
      const candidates = templated.get(`${method} ${parts.length}`);
      if (!candidates) return undefined;
      return candidates.find((entry) => entry.segments.every((segment, i) => (segment === null ? parts[i] !== '' : segment === parts[i])));
    },
  };
}

const literalCount = (entry: PermissionEntry) => entry.segments.filter((s) => s !== null).length;

export const allows = (allowed: Allowed, kind: KeyKind): boolean => allowed === PUBLIC || allowed.includes(kind);

/**
 * Right after `authenticate`: refuses, before any body is parsed or anything is
 * kept, a request whose key kind the table does not allow. An operation the
 * table does not name goes on to its 404 for staff keys (a read key only when
 * it reads) and is refused for device keys.
 */
export function enforcePermissions(lookup: PermissionLookup = compilePermissions(PERMISSIONS)): RequestHandler {
  return (req, res, next) => {
    const kind = callerOf(res).keyKind;
    const entry = lookup.find(req.method, req.path);
    if (entry ? allows(entry.allowed, kind) : kind === 'write' || (kind === 'read' && READ_METHODS.has(req.method))) return next();
    // A read key's refusal keeps the v1 contract's message.
    if (kind === 'read') throw new Forbidden(`read key used for ${entry?.operation ?? `${req.method} ${req.path}`}`);
    if (!entry) throw new NotAllowed(`A ${kind} key may not call ${req.method} ${req.path}: device keys reach only the operations named for them`);
    const kinds = entry.allowed === PUBLIC ? [] : entry.allowed;
    throw new NotAllowed(`A ${kind} key may not call ${entry.operation}; it needs a key of kind ${kinds.join(' or ')}`);
  };
}
