import type { KeyKind } from '../../shared/api/keys.js';

/**
 * What a kiosk or a scale sees of the catalog: what it sells and shows, not
 * what the shop pays. Purchase prices, margins and a supplier's contact and
 * bank details stay with staff keys (read, write), whoever holds the device.
 */
const DEVICE_KINDS: ReadonlySet<KeyKind> = new Set(['kiosk', 'scale']);

/** Product fields only staff keys read. */
const STAFF_PRODUCT_FIELDS = ['costPrice', 'margin'] as const;

/** Supplier fields a device key reads: enough to name the supplier, nothing to reach or pay them. */
const DEVICE_SUPPLIER_FIELDS = ['id', 'name', 'organizationId', 'deleted', 'createdate'] as const;

export const seesStaffFields = (kind: KeyKind): boolean => !DEVICE_KINDS.has(kind);

export function productAsSeenBy<T extends object>(kind: KeyKind, product: T): T {
  if (seesStaffFields(kind)) return product;
  const shown = { ...product } as Record<string, unknown>;
  for (const field of STAFF_PRODUCT_FIELDS) delete shown[field];
  return shown as T;
}

export function supplierAsSeenBy<T extends object>(kind: KeyKind, supplier: T): T {
  if (seesStaffFields(kind)) return supplier;
  const all = supplier as unknown as Record<string, unknown>;
  return Object.fromEntries(DEVICE_SUPPLIER_FIELDS.filter((field) => field in all).map((field) => [field, all[field]])) as T;
}
