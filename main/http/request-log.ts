import type { RequestHandler } from 'express';
import type { Logger } from 'pino';

/**
 * One structured line per request. Only method, path, status and timing are
 * logged: never headers (they carry keys) and never bodies.
 */
export function requestLog(logger: Logger): RequestHandler {
  if (!logger.isLevelEnabled('info')) return (_req, _res, next) => next();
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    // Read now: routers rewrite req.url while they handle the request.
    const { method, path } = req;
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ method, path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
