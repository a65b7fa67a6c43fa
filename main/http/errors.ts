import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { diskFailureMessage } from '../rules/disk-errors.js';
import { ApiError, Conflict, Forbidden, SearchUnavailable, ValidationFailed } from '../services/errors.js';

/** Sends the spec's standard error shape, with the record a conflict met as `data` when there is one. */
export function sendStandardError(req: Request, res: Response, statusCode: number, message: string, data?: unknown): void {
  res.status(statusCode).json({ statusCode, message, timestamp: new Date().toISOString(), path: req.originalUrl, ...(data === undefined ? {} : { data }) });
}

/** Any path no route answers: 404 in the standard shape. */
export const notFoundHandler: RequestHandler = (req, res) => {
  sendStandardError(req, res, 404, `Cannot ${req.method} ${req.path}: no such endpoint`);
};

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
}

/** What a request met when it was answered with an error, for a group commit to tell its other writes. */
export function failureOf(res: Response): unknown {
  return res.locals.failure;
}

/** The one place where errors become answers. Registered last. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  const answer = errorAnswer(logger);
  return (err: unknown, req, res, _next) => {
    res.locals.failure = err;
    answer(err, req, res);
  };
}

/**
 * The API router's own error handler: answers a route's error at once, inside
 * the write's commit (the answer kept for its Idempotency-Key, the group of
 * writes). A request whose body was refused before it all arrived (an
 * oversized upload) goes on to the app's handler instead: its answer, with
 * `Connection: close`, leaves a moment later, so the client reads it before
 * the connection ends.
 */
export function routeErrorHandler(logger: Logger): ErrorRequestHandler {
  const handle = errorHandler(logger);
  return (err: unknown, req, res, next) => (req.complete ? handle(err, req, res, next) : next(err));
}

/** Sends the answer an error gets: its status, in the shape the spec names for it. */
export function errorAnswer(logger: Logger): (err: unknown, req: Request, res: Response) => void {
  return (err, req, res) => {
    if (res.headersSent) {
      req.socket.destroy();
      return;
    }
    if (err instanceof ValidationFailed) {
      res.status(400).json({ error: { formErrors: err.formErrors, fieldErrors: err.fieldErrors } });
      return;
    }
    if (err instanceof SearchUnavailable) {
      res.status(503).json({ error: err.message });
      return;
    }
    if (err instanceof ApiError) {
      if (err instanceof Forbidden) logger.info({ path: req.originalUrl.split('?')[0], reason: err.reason }, 'request refused');
      sendStandardError(req, res, err.status, err.message, err instanceof Conflict ? err.data : undefined);
      return;
    }
    const parserError = err as BodyParserError;
    if (parserError.type === 'entity.parse.failed') {
      sendStandardError(req, res, 400, `Malformed JSON body: ${(err as Error).message}`);
      return;
    }
    if (parserError.type === 'entity.too.large') {
      sendStandardError(req, res, 413, `Request body is larger than the limit of ${parserError.limit ?? 'the server'} bytes`);
      return;
    }
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      sendStandardError(req, res, parserError.status, (err as Error).message);
      return;
    }
    const diskFailure = diskFailureMessage(err);
    if (diskFailure !== undefined) {
      logger.error({ err, path: req.originalUrl.split('?')[0] }, 'write failed on the disk');
      sendStandardError(req, res, 503, diskFailure);
      return;
    }
    logger.error({ err, path: req.originalUrl.split('?')[0] }, 'unexpected error');
    sendStandardError(req, res, 500, 'Unknown Error');
  };
}
