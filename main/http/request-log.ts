import type { RequestHandler } from 'express';
import { pino, type DestinationStream, type Logger } from 'pino';

/** Bytes of log lines gathered before one write. */
const LOG_BATCH_BYTES = 4096;
/** Longest a line waits for its batch. */
const LOG_FLUSH_MS = 1000;

/**
 * Standard output for the server's log, written in batches: with one line per
 * request, a write per line cost each answer a system call. What is gathered
 * is written within a second, and at once when the process exits.
 */
export function batchedStdout(): DestinationStream {
  return pino.destination({ dest: process.stdout.fd, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS, sync: false });
}

/**
 * One structured line per request. Only method, path, status and timing are
 * logged: never headers (they carry keys) and never bodies.
 */
export function requestLog(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = performance.now();
    // Read now: routers rewrite req.url while they handle the request.
    const { method, path } = req;
    res.on('finish', () => logRequest(logger, method, path, res.statusCode, started));
    next();
  };
}

/** The request's line: `started` is its `performance.now()` on arrival. */
export function logRequest(logger: Logger, method: string, path: string, status: number, started: number): void {
  logger.info({ method, path, status, ms: Math.round((performance.now() - started) * 10) / 10 }, 'request');
}
