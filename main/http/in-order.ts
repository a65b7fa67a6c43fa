import type { NextFunction, RequestHandler } from 'express';

/**
 * Runs `steps` one after the other as one middleware. Each middleware the
 * Router holds costs every request a walk through its layer machinery (path
 * match, prefix trim, a `next` of its own); steps that run on every request
 * cost less chained here by hand. A step may answer, throw, call `next(err)`
 * or call `next()` later (after an await); the chain goes on from there.
 */
export function inOrder(...steps: readonly RequestHandler[]): RequestHandler {
  const [only] = steps;
  if (steps.length === 1 && only) return only;
  return (req, res, next) => {
    let index = 0;
    const proceed = (err?: unknown): void => {
      const step = steps[index];
      index += 1;
      if (err !== undefined || step === undefined) return next(err);
      try {
        void step(req, res, proceed as NextFunction);
      } catch (thrown) {
        next(thrown);
      }
    };
    proceed();
  };
}
