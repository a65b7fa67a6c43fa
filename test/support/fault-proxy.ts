import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Transform } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/**
 * How the proxy treats a request: `pass` forwards it; `down` closes the
 * connection without an answer; `drop` forwards it and closes the connection
 * once the upstream has answered (a lost acknowledgement); `error` answers 503
 * without forwarding; `delay` forwards it after a pause; `throttle` forwards
 * it over a slow line, request and answer at `bytesPerSecond` each;
 * `missing` answers 404 without forwarding (an endpoint the upstream lacks).
 */
export type FaultMode = 'pass' | 'down' | 'drop' | 'error' | 'delay' | 'throttle' | 'missing';

export interface FaultProxy {
  /** Base URL of the API through the proxy, e.g. http://127.0.0.1:1234/api/v1 */
  url: string;
  /** Every request from now on gets this treatment (`pass` to heal). */
  setMode(mode: FaultMode, options?: { delayMs?: number; bytesPerSecond?: number; only?: (method: string, path: string) => boolean }): void;
  /** A share of requests fails at random (`error`, `drop`, `delay` in turn), from a seeded generator. */
  setRandomFaults(seed: number, rate: number): void;
  /** Requests seen, and how many of them were faulted. */
  stats(): { requests: number; faulted: number };
  /** Records the upstream served in list answers (`data` arrays of GETs), per path without the query, e.g. `/products`. */
  rowsRead(): Record<string, number>;
  /** List requests (GETs answered with a `data` array), per path without the query. */
  listReads(): Record<string, number>;
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so a failing run can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Passes bytes on at `bytesPerSecond`, in slices every 50 ms, as a slow line would. */
function slowLine(bytesPerSecond: number): Transform {
  const slice = Math.max(1, Math.round(bytesPerSecond / 20));
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const pieces: Buffer[] = [];
      for (let at = 0; at < chunk.length; at += slice) pieces.push(chunk.subarray(at, at + slice));
      const next = () => {
        const piece = pieces.shift();
        if (piece === undefined) return done();
        this.push(piece);
        setTimeout(next, 50);
      };
      next();
    },
  });
}

/** An answer's bytes as the upstream wrote them before compressing them. */
function decoded(bytes: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return brotliDecompressSync(bytes);
  if (encoding === 'gzip') return gunzipSync(bytes);
  return bytes;
}

export interface FaultProxyOptions {
  /**
   * Passes the client's own `Host` on instead of the upstream's: a browser page
   * loaded through the proxy is then the server's own origin (its Origin
   * header matches the Host), as the kiosk is on the server it talks to.
   */
  keepHost?: boolean;
}

/** A real HTTP proxy in front of a real upstream server that injects faults on demand. */
export async function startFaultProxy(upstreamApiUrl: string, options: FaultProxyOptions = {}): Promise<FaultProxy> {
  const target = new URL(upstreamApiUrl);
  let mode: FaultMode = 'pass';
  let delayMs = 50;
  let bytesPerSecond = 64_000;
  let only: ((method: string, path: string) => boolean) | undefined;
  let random: { next: () => number; rate: number } | undefined;
  let requests = 0;
  let faulted = 0;
  const rows: Record<string, number> = {};
  const lists: Record<string, number> = {};

  /** Counts the rows of a list answer as it passes. */
  const countRows = (req: IncomingMessage, upstreamRes: IncomingMessage) => {
    if (req.method !== 'GET') return;
    const path = (req.url ?? '').replace(target.pathname, '').split('?')[0] ?? '';
    const chunks: Buffer[] = [];
    upstreamRes.on('data', (chunk: Buffer) => chunks.push(chunk));
    upstreamRes.on('end', () => {
      try {
        const body = JSON.parse(decoded(Buffer.concat(chunks), upstreamRes.headers['content-encoding']).toString('utf8')) as { data?: unknown };
        if (!Array.isArray(body.data)) return;
        rows[path] = (rows[path] ?? 0) + body.data.length;
        lists[path] = (lists[path] ?? 0) + 1;
      } catch {
        // Not a JSON list (an image, an error page): nothing to count.
      }
    });
  };

  const forward = (req: IncomingMessage, res: ServerResponse, after: 'answer' | 'drop' | 'throttle') => {
    const upstreamReq = request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: options.keepHost ? req.headers : { ...req.headers, host: target.host } },
      (upstreamRes) => {
        if (after === 'drop') {
          upstreamRes.resume();
          upstreamRes.on('end', () => req.socket.destroy());
          return;
        }
        countRows(req, upstreamRes);
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        (after === 'throttle' ? upstreamRes.pipe(slowLine(bytesPerSecond)) : upstreamRes).pipe(res);
      },
    );
    upstreamReq.on('error', () => req.socket.destroy());
    // A client that gives up before its answer cuts the line to the upstream too.
    res.on('close', () => {
      if (!res.writableFinished) upstreamReq.destroy();
    });
    if (after !== 'throttle') {
      req.pipe(upstreamReq);
      return;
    }
    // The line's backlog waits in the proxy, not in the client's socket: a
    // paused socket would not notice that the client gave up.
    const line = slowLine(bytesPerSecond);
    req.on('data', (chunk: Buffer) => line.write(chunk));
    req.on('end', () => line.end());
    line.pipe(upstreamReq);
  };

  const pick = (method: string, path: string): FaultMode => {
    if (random) {
      const roll = random.next();
      if (roll >= random.rate) return 'pass';
      const modes: FaultMode[] = ['error', 'drop', 'delay'];
      return modes[Math.floor((roll / random.rate) * modes.length)] ?? 'error';
    }
    return only === undefined || only(method, path) ? mode : 'pass';
  };

  const server = createServer((req, res) => {
    requests += 1;
    const chosen = pick(req.method ?? 'GET', (req.url ?? '').replace(target.pathname, ''));
    if (chosen !== 'pass') faulted += 1;
    if (chosen === 'down') req.socket.destroy();
    else if (chosen === 'missing') {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 404, message: 'Not Found' }));
    }
    else if (chosen === 'error') {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ statusCode: 503, message: 'Service Unavailable' }));
    } else if (chosen === 'delay') setTimeout(() => forward(req, res, 'answer'), delayMs);
    else forward(req, res, chosen === 'drop' || chosen === 'throttle' ? chosen : 'answer');
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    setMode(next, options = {}) {
      mode = next;
      random = undefined;
      delayMs = options.delayMs ?? 50;
      bytesPerSecond = options.bytesPerSecond ?? 64_000;
      only = options.only;
    },
    setRandomFaults(seed, rate) {
      random = { next: seededRandom(seed), rate };
      delayMs = 20;
    },
    stats: () => ({ requests, faulted }),
    rowsRead: () => ({ ...rows }),
    listReads: () => ({ ...lists }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
