import type { Db } from '../storage/database.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { Caller } from './caller.js';
import type { Clock } from './clock.js';
import { immediateTransaction } from '../storage/transactions.js';

/**
 * A partial update as every resource does it. An empty patch changes nothing
 * and only proves the record exists. Otherwise the record is read again,
 * written and queued for the upstream in one transaction, so two updates of
 * the same record never interleave.
 *
 * @param read returns the current record or throws `NotFound`
 * @param write stores the record with `fields` applied
 * @returns the record as it was before, or undefined for an empty patch
 */
export function applyPartialUpdate<T>(
  deps: { db: Db; outbox: OutboxStore; clock: Clock },
  update: {
    caller: Caller;
    resource: string;
    id: string;
    fields: object;
    read: () => T;
    write: (current: T, now: string) => void;
  },
): T | undefined {
  if (Object.keys(update.fields).length === 0) {
    update.read();
    return undefined;
  }
  const now = deps.clock.now().toISOString();
  return immediateTransaction(deps.db, () => {
    const current = update.read();
    update.write(current, now);
    deps.outbox.append({
      orgId: update.caller.orgId,
      relayed: update.caller.relayed,
      resource: update.resource,
      resourceId: update.id,
      operation: 'update',
      body: update.fields,
      createdAt: now,
    });
    return current;
  });
}
