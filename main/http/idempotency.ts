import { createHash } from 'node:crypto';
import { SYNC_ACKNOWLEDGED_HEADER } from '../../shared/api/idempotency.js';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Clock } from '../services/clock.js';
import { BadRequest, Conflict, UnprocessableEntity } from '../services/errors.js';
import { SYNC_SCOPE, type IdempotencyKeyStore } from '../storage/idempotency-keys.js';
import { callerOf } from './auth.js';
import { crashPoint } from '../system/crash-point.js';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** How long a first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How long, at most, the answer to a sync worker's creation is kept: a store
 * PC switched off for up to 90 days before it could note an answer still gets
 * it replayed. Its store usually lets it go much sooner (`Sync-Acknowledged-Below`).
 */
export const SYNC_ANSWER_MAX_MS = 90 * 24 * 60 * 60 * 1000;
const MAX_KEY_LENGTH = 255;
/** A sync worker's key (`sync-<local org id>-<entry id>`), `<sender>-<entry id>` with `-r<n>` after a retry: the sender (the key without its entry part) and the entry id. */
export function parseSyncKey(key: string): { sender: string; entrySeq: number } | undefined {
  const match = /^(sync-.+)-(\d{1,15})(?:-r\d+)?$/.exec(key);
  return match ? { sender: match[1] as string, entrySeq: Number(match[2]) } : undefined;
}

/** The entry id a store's sync worker acknowledged below, or undefined when the header is absent or unusable. */
export function acknowledgedBelow(req: Request): number | undefined {
  const value = req.get(SYNC_ACKNOWLEDGED_HEADER);
  return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * What makes two requests "the same". A JSON body is compared by its parsed
 * value; an upload, whose bytes are streamed to the image store and never held
 * in memory, by its declared type (without the multipart boundary) and length.
 */
function fingerprintOf(req: Request): string {
  const hash = createHash('sha256').update(`${req.method} ${req.baseUrl}${req.path}\n`);
  const type = req.headers['content-type'] ?? '';
  if (/^application\/json\b/i.test(type)) hash.update(JSON.stringify(req.body ?? null));
  else hash.update(`${type.split(';')[0]?.trim().toLowerCase()}\n${req.headers['content-length'] ?? ''}`);
  return hash.digest('hex');
}

function readKey(req: Request): string | undefined {
  const key = req.get(IDEMPOTENCY_HEADER);
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new BadRequest(`${IDEMPOTENCY_HEADER}: must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters without spaces`);
  }
  return key;
}

/**
 * `Idempotency-Key` on every POST: the first answer (status and body) is kept
 * for 24 hours (a sync worker's creation longer) per API key and value and replayed to a repeat with the same
 * body; another body is 422, a repeat while the first still runs is 409. Server
 * errors and 403 refusals are not kept, so a retry runs again. Runs after `authenticate` and the
 * JSON parser.
 */
export function idempotency(store: IdempotencyKeyStore, clock: Clock): RequestHandler {
  // Requests still running, by organization and key, with their fingerprint.
  const running = new Map<string, string>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') return next();
    const key = readKey(req);
    if (key === undefined) return next();
    const caller = callerOf(res);
    const orgId = caller.orgId;
    // Only keys that may sync steer what the sync worker's keys are kept for.
    const syncing = caller.keyKind === 'write';
    // A value belongs to the API key that sent it: one key's requests never replay or block another's. A store
    // PC's sync key names its sender and stays the organization's, so an entry sent again after the store's
    // upstream key was replaced still gets its first answer.
    const apiKeyId = syncing && parseSyncKey(key) !== undefined ? SYNC_SCOPE : (caller.keyId ?? '');
    const slot = `${orgId}\n${apiKeyId}\n${key}`;
    const now = clock.now();
    const fingerprint = fingerprintOf(req);
    const inFlight = running.get(slot);
    let known = inFlight === undefined ? store.get(orgId, apiKeyId, key) : undefined;
    if (known && known.expiresAt <= now.toISOString()) {
      store.forget(orgId, apiKeyId, key);
      known = undefined;
    }
    if ((known?.fingerprint ?? inFlight ?? fingerprint) !== fingerprint) {
      throw new UnprocessableEntity(`${IDEMPOTENCY_HEADER} ${JSON.stringify(key)} was already used with another request body; use a new key`);
    }
    if (inFlight !== undefined) {
      throw new Conflict(`A request with ${IDEMPOTENCY_HEADER} ${JSON.stringify(key)} is still being processed; retry after it has been answered`);
    }
    if (known) {
      res.set(REPLAYED_HEADER, 'true');
      res.status(known.status).type('application/json').send(known.body);
      return;
    }
    running.set(slot, fingerprint);
    // The answer is kept in the same commit as the write it answers, and sent
    // only after that commit: a handler that answers without awaiting anything
    // runs inside `inOneCommit`, and its answer waits there. An answer given
    // later (an upload streamed to disk) is kept as it is sent.
    let held: { body: unknown } | undefined;
    let inCommit = true;
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      // A 403 refuses the key, not the request (another store, a feature not
      // enabled yet): it changes nothing and is not kept, so it leaves no trace.
      if (running.delete(slot) && res.statusCode < 500 && res.statusCode !== 403) {
        crashPoint('before-answer-kept');
        const sentBy = syncing ? parseSyncKey(key) : undefined;
        const longer = sentBy !== undefined && isSyncCreation(req.path, res.statusCode, body);
        const expiresAt = new Date(now.getTime() + (longer ? SYNC_ANSWER_MAX_MS : IDEMPOTENCY_TTL_MS)).toISOString();
        store.save(orgId, apiKeyId, key, { fingerprint, status: res.statusCode, body: JSON.stringify(body), createdAt: now.toISOString(), expiresAt, sentBy: longer ? sentBy : undefined });
        const below = acknowledgedBelow(req);
        if (sentBy && below !== undefined) store.acknowledge(orgId, sentBy.sender, below);
      }
      if (!inCommit) return json(body);
      held = { body };
      return res;
    };
    res.on('close', () => running.delete(slot));
    try {
      store.inOneCommit(next);
    } catch (err) {
      // The commit itself failed (disk full, I/O error): nothing was stored, and the answer tells so.
      held = undefined;
      inCommit = false;
      running.delete(slot);
      next(err);
      return;
    }
    inCommit = false;
    // Inside a group of writes the commit is still to come; the group sends the answer after it.
    if (!store.inGroup()) crashPoint('before-answer-sent');
    if (held) json(held.body);
  };
}

/**
 * A sync worker's creation of a record (a store PC pushing its queue) is kept
 * until its store acknowledges it, for up to `SYNC_ANSWER_MAX_MS`: a store
 * switched off for days after it sent one, before it could note the answer,
 * sends it again with the same key, and only a replay keeps the upstream from
 * creating it twice. Orders are left out; their `orderId` already makes a
 * repeat harmless at any age, and they are most of the volume.
 */
function isSyncCreation(path: string, status: number, body: unknown): boolean {
  if (status >= 300 || path === '/orders') return false;
  return typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string';
}
