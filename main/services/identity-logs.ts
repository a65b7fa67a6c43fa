import type { ListMeta } from '../../shared/api/common.js';
import type { Feature } from '../../shared/features.js';
import type {
  BlockedIdentity,
  BlockedIdentityCreate,
  BlockedIdentityListQuery,
  BlockedIdentityUpdate,
  IdentityLog,
  IdentityLogCreate,
  IdentityLogListQuery,
  IdentityVerdict,
  IdentityVerdictRequest,
} from '../../shared/api/identity-logs.js';
import { matchesBlocked } from '../rules/blocked-identity-match.js';
import { newId } from '../rules/ids.js';
import { toStoredTime } from '../rules/timestamps.js';
import type { Db } from '../storage/database.js';
import type { IdentityLogStore } from '../storage/identity-logs.js';
import type { OutboxStore } from '../storage/outbox.js';
import type { StoreStore } from '../storage/stores.js';
import { requireFeature, type Caller } from './caller.js';
import { feedPage, feedReadTime, feedStart } from './change-feed.js';
import type { Clock } from './clock.js';
import { NotAllowed, NotFound } from './errors.js';
import { readCursor, toPage } from './paging.js';
import { requireStores } from './store-references.js';
import { readTimeCursor } from './time-cursor.js';
import { immediateTransaction } from '../storage/transactions.js';

/** The feature every identity-log endpoint needs. */
export const IDENTITY_LOGS: Feature = 'identity-logs';

export function createIdentityLogService(deps: { db: Db; identityLogs: IdentityLogStore; stores: StoreStore; outbox: OutboxStore; clock: Clock }) {
  const { db, identityLogs, stores, outbox, clock } = deps;

  const mustGetBlocked = (orgId: string, id: string): BlockedIdentity => {
    const blocked = identityLogs.getBlocked(orgId, id);
    if (!blocked) throw new NotFound('Blocked identity', id);
    return blocked;
  };

  /** Records one identity check; its time is `logDate` when the kiosk sends one, else now. */
  const record = (caller: Caller, body: IdentityLogCreate): string => {
    requireFeature(caller, IDENTITY_LOGS);
    const store = body.store ?? caller.store ?? undefined;
    if (caller.store && store !== caller.store) {
      throw new NotAllowed(`store: a kiosk key of store ${JSON.stringify(caller.store)} records identity checks of that store only, not of ${JSON.stringify(store)}`);
    }
    requireStores(stores, caller.orgId, 'store', store === undefined ? undefined : [store]);
    const id = newId();
    const now = clock.now().toISOString();
    const applied: IdentityLogCreate = {
      ...body,
      ...(store === undefined ? {} : { store }),
      logDate: body.logDate === undefined ? now : toStoredTime(body.logDate),
    };
    const log: IdentityLog = { ...applied, id, logDate: applied.logDate as string, instance: caller.orgId };
    immediateTransaction(db, () => {
      identityLogs.insertLog(log, now);
      outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'identity-log', resourceId: id, operation: 'create', body: applied, createdAt: now });
    });
    return id;
  };

  return {
    record,

    /** Whether an identity a kiosk read is blocked: the blocked list is compared here and never handed out. */
    verdict(caller: Caller, claim: IdentityVerdictRequest): IdentityVerdict {
      requireFeature(caller, IDENTITY_LOGS);
      const blocked = identityLogs.activeBlocked(caller.orgId).some((entry) => matchesBlocked(claim, entry));
      // Every answer is on record: a run of verdicts on one key is visible in the identity logs.
      record(caller, { access: !blocked, logType: 'verdict', birthDate: claim.birthDate, ...(claim.rawText === undefined ? {} : { rawText: claim.rawText }) });
      return { blocked };
    },

    /** Identity checks newest first, filtered, paged by keyset cursor. */
    list(caller: Caller, query: IdentityLogListQuery): { data: IdentityLog[]; meta: ListMeta } {
      requireFeature(caller, IDENTITY_LOGS);
      const after = readTimeCursor(query.cursor);
      const rows = identityLogs.logPage({
        orgId: caller.orgId,
        store: query.store,
        source: query.source,
        access: query.access === undefined ? undefined : query.access === 'allowed',
        start: query.start === undefined ? undefined : toStoredTime(query.start),
        end: query.end === undefined ? undefined : toStoredTime(query.end),
        after: after && { logDate: after.key, id: after.id },
        limit: query.limit + 1,
      });
      return toPage(rows, query.limit, (log) => ({ key: log.logDate, id: log.id }));
    },

    block(caller: Caller, body: BlockedIdentityCreate): string {
      requireFeature(caller, IDENTITY_LOGS);
      const id = newId();
      const now = clock.now().toISOString();
      const blocked: BlockedIdentity = { id, date: now, ...body, deleted: false };
      immediateTransaction(db, () => {
        identityLogs.insertBlocked(caller.orgId, blocked, now);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'blocked-identity', resourceId: id, operation: 'create', body, createdAt: now });
      });
      return id;
    },

    /** A blocked identity, also an unblocked one (with `deleted: true`). */
    getBlocked(caller: Caller, id: string): BlockedIdentity {
      requireFeature(caller, IDENTITY_LOGS);
      return mustGetBlocked(caller.orgId, id);
    },

    /** Replaces comment and names; birthDate only when sent, since it cannot be cleared. */
    updateBlocked(caller: Caller, id: string, body: BlockedIdentityUpdate): void {
      requireFeature(caller, IDENTITY_LOGS);
      const now = clock.now().toISOString();
      immediateTransaction(db, () => {
        const current = mustGetBlocked(caller.orgId, id);
        identityLogs.updateBlocked(caller.orgId, { ...current, ...body }, now);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'blocked-identity', resourceId: id, operation: 'update', body, createdAt: now });
      });
    },

    /** Soft-deletes (unblocks); deleting an unblocked identity again changes nothing. */
    unblock(caller: Caller, id: string): void {
      requireFeature(caller, IDENTITY_LOGS);
      const now = clock.now().toISOString();
      immediateTransaction(db, () => {
        const current = mustGetBlocked(caller.orgId, id);
        if (current.deleted) return;
        identityLogs.updateBlocked(caller.orgId, { ...current, deleted: true }, now);
        outbox.append({ orgId: caller.orgId, relayed: caller.relayed, resource: 'blocked-identity', resourceId: id, operation: 'delete', body: {}, createdAt: now });
      });
    },

    /** Active blocked identities in id order, paged by keyset cursor; with `updatedSince`, the change feed. */
    listBlocked(caller: Caller, query: BlockedIdentityListQuery): { data: BlockedIdentity[]; meta: ListMeta } {
      requireFeature(caller, IDENTITY_LOGS);
      if (query.updatedSince !== undefined) {
        const completeUntil = feedReadTime(clock);
        const rows = identityLogs.changedBlocked({ orgId: caller.orgId, ...feedStart(query.updatedSince, query.cursor), limit: query.limit + 1 });
        return feedPage(rows, query.limit, completeUntil, (b) => b.id);
      }
      const after = readCursor(query.cursor);
      const rows = identityLogs.blockedPage(caller.orgId, after?.id, query.limit + 1);
      return toPage(rows, query.limit, (b) => ({ key: b.id, id: b.id }));
    },
  };
}

export type IdentityLogService = ReturnType<typeof createIdentityLogService>;
