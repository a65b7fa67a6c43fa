import type { Request, RequestHandler, Response } from 'express';
import type { ServerResponse } from 'node:http';
import type { Db } from '../storage/database.js';
import type { GroupCommit } from '../storage/group-commit.js';
import { callerOf } from './auth.js';
import { crashPoint } from '../system/crash-point.js';
import { failureOf } from './errors.js';
import { READ_METHODS } from './read-methods.js';

/**
 * Reads wait while a group of writes is open or being flushed and run once
 * it is on disk, before the next group opens, so that no answer shows a
 * write that is not durable yet (a store pulling a record a power cut then
 * takes back). While a large write holds its group open for seconds (a
 * catalog import), reads go on at once, a scanner's lookups among them; only
 * the change feed, which other servers copy, still waits for the commit.
 */
export function readsAfterCommit(groups: GroupCommit): RequestHandler {
  return (req, res, next) => {
    if (!READ_METHODS.has(req.method)) return next();
    const waits = groups.whenReadable(req.query.updatedSince !== undefined, (done) => {
      doneOnAnswer(res, done);
      next();
    });
    if (!waits) next();
  };
}

/**
 * Calls `done` once the answer begins (its head is written) or the request
 * ends unanswered: a route reads before it answers, even one the router
 * reaches a tick later.
 */
export function doneOnAnswer(res: ServerResponse, done: () => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function answering(this: ServerResponse, ...args: unknown[]) {
    res.writeHead = writeHead;
    done();
    return (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
  res.once('close', done);
}

/** A body still to be streamed by the route (an image upload): its route awaits, so it does not open a group. */
const hasUnreadBody = (req: Request) =>
  req.body === undefined && (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0');

/**
 * A write no person waits for: what a store PC's sync worker relays to its
 * upstream (its pushed entries, which carry `Sync-Acknowledged-Below` and a
 * write key) and its heartbeat. At a hub these are nearly all the writes,
 * arriving spread out from thousands of stores; waiting a few milliseconds
 * longer lets many share one commit and one fsync.
 */
export function unattendedWrite(req: Request, res: Response): boolean {
  return callerOf(res)?.relayed === true || (req.method === 'POST' && req.path === '/fleet/heartbeat');
}

/**
 * Runs each write in the open group (or opens one) and holds its answer until
 * the group committed, so every answer still means "stored for good". Goes
 * after the JSON parser: a group never waits for a body to arrive. A route
 * that answers later (after an await) is not waited for; its answer waits
 * for the group open when it is given. When a group fails to commit, a write
 * that ran in it, or was under way meanwhile, gets the error it would have
 * got alone; one that changed nothing keeps its own answer.
 */
export function writesInGroups(groups: GroupCommit, db: Db, answerError: (err: unknown, req: Request, res: Response) => void): RequestHandler {
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const writeInGroup: RequestHandler = (req, res, next) => {
    const failuresBefore = groups.failures();
    const grouped = !hasUnreadBody(req);
    if (grouped) groups.join(unattendedWrite(req, res));
    const headers = res.getHeaders();
    const changesBefore = totalChanges.get();
    let inline = true;
    const end = res.end;
    res.end = function heldEnd(this: Response, ...args: unknown[]) {
      const changed = !inline || totalChanges.get() !== changesBefore;
      // Answered inline, every statement of the write ran in the group it waits for: only that group's fate is its own.
      const ownGroupOnly = inline && grouped;
      const send = (failure: unknown) => {
        res.end = end;
        const lost = failure ?? (!ownGroupOnly && groups.failures() !== failuresBefore ? groups.lastFailure() : undefined);
        if (lost === undefined || !changed) {
          if (req.headers['idempotency-key'] !== undefined) crashPoint('before-answer-sent');
          (end as (...a: unknown[]) => Response).apply(res, args);
          return;
        }
        for (const name of res.getHeaderNames()) if (!(name in headers)) res.removeHeader(name);
        for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
        answerError(lost, req, res);
      };
      if (!groups.afterCommit(send)) send(undefined);
      return res;
    } as Response['end'];
    try {
      next();
    } finally {
      inline = false;
      if (grouped) groups.left(failureOf(res));
    }
  };
  return (req, res, next) => {
    // Reads waiting for the disk run before a new group opens; a write that would open one waits for them.
    if (!hasUnreadBody(req) && groups.whenWritable(unattendedWrite(req, res), () => writeInGroup(req, res, next))) return;
    writeInGroup(req, res, next);
  };
}
