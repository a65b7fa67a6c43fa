import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { inOrder } from '../main/http/in-order.js';

/**
 * `inOrder` chains steps by hand instead of mounting each on the Router: the
 * same steps must end the same way either way. Each case is one app with
 * the steps mounted one by one and one with them chained by `inOrder`,
 * asked the same request.
 */

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

const mark = (name: string): RequestHandler => (_req, res, next) => {
  res.append('X-Steps', name);
  next();
};
const answer: RequestHandler = (_req, res) => void res.json({ answered: true });
const errors: ErrorRequestHandler = (err, _req, res, _next) => void res.status(500).json({ error: err instanceof Error ? err.message : String(err) });

async function listen(use: (app: express.Express) => void): Promise<string> {
  const app = express();
  use(app);
  app.use((_req, res) => void res.status(404).json({ notFound: true }));
  app.use(errors);
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function bothWays(steps: RequestHandler[]) {
  const ask = async (base: string) => {
    const res = await fetch(base);
    return { status: res.status, steps: res.headers.get('x-steps'), body: await res.text() };
  };
  const mounted = await listen((app) => {
    app.use(...steps);
    app.use(answer);
  });
  const chained = await listen((app) => {
    app.use(inOrder(...steps));
    app.use(answer);
  });
  return { mounted: await ask(mounted), chained: await ask(chained) };
}

const cases: [string, RequestHandler[]][] = [
  ['every step goes on', [mark('a'), mark('b')]],
  ['a step calls next(null)', [(_req, _res, next) => next(null), mark('b')]],
  ["a step calls next('route')", [(_req, _res, next) => next('route'), mark('b')]],
  ["a step calls next('router')", [mark('a'), (_req, _res, next) => next('router'), mark('c')]],
  ['a step calls next(err)', [mark('a'), (_req, _res, next) => next(new Error('refused')), mark('c')]],
  ['a step throws', [mark('a'), () => { throw new Error('thrown'); }, mark('c')]],
  ['a step returns a rejected promise', [mark('a'), async () => { throw new Error('rejected'); }, mark('c')]],
  ['a step returns a promise rejected without a reason', [mark('a'), () => Promise.reject(undefined), mark('c')]],
  ['a step goes on after an await', [async (_req, _res, next) => { await Promise.resolve(); next(); }, mark('b')]],
];

describe('inOrder', () => {
  it.each(cases)('ends as the Router does when %s', async (_name, steps) => {
    const { mounted, chained } = await bothWays(steps);
    expect(chained).toEqual(mounted);
  });
});
