import type { StoreStore } from '../storage/stores.js';
import { BadRequest } from './errors.js';

/**
 * Checks that every id names a store of the organization, as an order's
 * `store` is checked. A soft-deleted store still exists: lists and records
 * made while it was open stay valid.
 */
export function requireStores(stores: StoreStore, orgId: string, field: string, ids: readonly string[] | undefined): void {
  for (const id of ids ?? []) {
    if (!stores.get(orgId, id)) throw new BadRequest(`${field}: no store ${JSON.stringify(id)} in this organization`);
  }
}
