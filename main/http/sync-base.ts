import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { BadRequest, PreconditionFailed } from '../services/errors.js';
import type { CatalogTable, SyncWriterStore } from '../storage/sync-writers.js';
import { callerOf } from './auth.js';
import { IDEMPOTENCY_HEADER, parseSyncKey } from './idempotency.js';

/** The upstream time up to which the sending store PC had seen every change of the record's collection. */
export const SYNC_BASE_HEADER = 'Sync-Base-Updated-At';

/** The updates a store PC pushes: a record's fields, a product's image. */
const UPDATE_PATH = /^\/(products|categories|suppliers|stores|identity-logs\/blocked)\/([^/]+)(?:\/image)?$/;
const CREATE_PATH = /^\/(products|categories|suppliers|stores|identity-logs\/blocked)$/;
const TABLES: Record<string, CatalogTable> = {
  products: 'products',
  categories: 'categories',
  suppliers: 'suppliers',
  stores: 'stores',
  'identity-logs/blocked': 'blocked_identities',
};

/** The store PC behind a sync worker's key (`sync-<…>-<entry>[-r<n>]`): the key without its entry number. */
const writerOf = (key: string | undefined): string | undefined => (key === undefined ? undefined : parseSyncKey(key)?.sender);

/**
 * `Sync-Base-Updated-At` on a pushed update: refused with 412 when the record
 * changed after that time by anyone other than the store PC sending it, so a
 * change queued (or sent again after a lost acknowledgement, at any age) never
 * writes over a newer change made upstream; the store takes the upstream's
 * record with its next pull. Runs after `Idempotency-Key`, inside its commit,
 * so a repeat within the answer's lifetime is replayed before it gets here.
 */
export function syncBase(writers: SyncWriterStore): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    // Headers that steer sync count only from keys that may sync; from others they are ignored.
    if (callerOf(res).keyKind !== 'write') return next();
    const creation = req.method === 'POST' ? CREATE_PATH.exec(req.path) : null;
    const creator = creation ? writerOf(req.get(IDEMPOTENCY_HEADER)) : undefined;
    if (creation && creator) {
      // A store PC's creation is its own change too: its later updates based on an older view are not refused for it.
      const table = TABLES[creation[1] ?? ''] as CatalogTable;
      const orgId = callerOf(res).orgId;
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const id = body && typeof body === 'object' && 'id' in body && typeof body.id === 'string' ? body.id : undefined;
        const stamped = id !== undefined && res.statusCode < 300 ? writers.lastupdateOf(orgId, table, id) : undefined;
        if (id !== undefined && stamped !== undefined) writers.record(orgId, table, id, creator, stamped);
        return json(body);
      };
      return next();
    }
    const base = req.get(SYNC_BASE_HEADER);
    const match = req.method === 'POST' && base !== undefined ? UPDATE_PATH.exec(req.path) : null;
    if (!match || base === undefined) return next();
    if (Number.isNaN(Date.parse(base))) throw new BadRequest(`${SYNC_BASE_HEADER}: must be a date-time such as 2026-01-31T12:00:00.000Z`);
    const table = TABLES[match[1] ?? ''] as CatalogTable;
    const id = decodeURIComponent(match[2] ?? '');
    const orgId = callerOf(res).orgId;
    const writer = writerOf(req.get(IDEMPOTENCY_HEADER));
    const before = writers.lastupdateOf(orgId, table, id);
    if (before !== undefined && Date.parse(before) > Date.parse(base) && !(writer && writers.wrote(orgId, table, id, writer, before))) {
      throw new PreconditionFailed(
        `This record changed after ${base}, the last state the sender had seen, and the change was not the sender's; its own change is not applied. Read the record again and apply the change to it if it still matters.`,
      );
    }
    if (!writer) return next();
    let noted = false;
    const noteWriter = () => {
      const after = writers.lastupdateOf(orgId, table, id);
      if (noted || after === undefined || after === before || res.statusCode >= 300) return;
      writers.record(orgId, table, id, writer, after);
      noted = true;
    };
    next();
    // A field update has written by now, in the same commit; an upload writes once its file is stored.
    noteWriter();
    res.once('finish', noteWriter);
  };
}
