import type { NextFunction, RequestHandler } from 'express';

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as Promise<unknown> | undefined)?.then === 'function';

/**
 * Runs `steps` one after the other as one middleware. Each middleware the
 * Router holds costs every request a walk through its layer machinery (path
 * match, prefix trim, a `next` of its own); steps that run on every request
 * cost less chained here by hand. A step may answer, throw, return a promise,
 * call `next(err)` or call `next()` later (after an await); the chain goes on
 * as the Router would go on through the same steps mounted one by one: a
 * falsy value or `'route'` goes on to the next step, `'router'` and any other
 * value leave the steps, and a rejected promise is an error (an `Error` when
 * its reason is falsy).
 */
export function inOrder(...steps: readonly RequestHandler[]): RequestHandler {
  const [only] = steps;
  if (steps.length === 1 && only) return only;
  return (req, res, next) => {
    let index = 0;
    const proceed = (err?: unknown): void => {
      if (err === 'router' || (err && err !== 'route')) return next(err);
      const step = steps[index];
      index += 1;
      if (step === undefined) return next();
      try {
        const returned: unknown = step(req, res, proceed as NextFunction);
        if (isPromise(returned)) returned.then(undefined, (error: unknown) => proceed(error || new Error('Rejected promise')));
      } catch (thrown) {
        proceed(thrown);
      }
    };
    proceed();
  };
}
