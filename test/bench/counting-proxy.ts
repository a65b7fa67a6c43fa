import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

/** Upstream traffic seen by the proxy since it started. */
export interface Traffic {
  requests: number;
  /** Bytes on the wire both ways: request and status lines, headers and bodies. */
  bytes: number;
  /** Products in the answers to product reads (lists and single products). */
  productRows: number;
}

export interface CountingProxy {
  /** Base URL of the API through the proxy. */
  url: string;
  traffic(): Traffic;
  close(): Promise<void>;
}

const headBytes = (firstLine: string, rawHeaders: string[]): number => {
  let bytes = firstLine.length + 4;
  for (let i = 0; i < rawHeaders.length; i += 2) bytes += Buffer.byteLength(rawHeaders[i]!) + Buffer.byteLength(rawHeaders[i + 1]!) + 4;
  return bytes;
};

/** `/products`, `/products?…` and `/products/<id>`: the reads that hand out product rows. */
const PRODUCT_READ = /^\/products(?:\/[^/?]+)?(?:\?|$)/;

/** The rows of an answer, decompressed first when the upstream compressed it. */
const rowsIn = (body: Buffer, encoding: string | undefined): number => {
  try {
    const bytes = encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;
    const data = (JSON.parse(bytes.toString('utf8')) as { data?: unknown }).data;
    if (Array.isArray(data)) return data.length;
    return data && typeof data === 'object' ? 1 : 0;
  } catch {
    return 0;
  }
};

/**
 * A pass-through HTTP proxy between a store PC and its upstream that counts
 * what sync costs the line and the upstream: requests, bytes and product rows.
 */
export async function startCountingProxy(upstreamApiUrl: string): Promise<CountingProxy> {
  const target = new URL(upstreamApiUrl);
  const traffic: Traffic = { requests: 0, bytes: 0, productRows: 0 };

  const server = createServer((req, res) => {
    traffic.requests += 1;
    traffic.bytes += headBytes(`${req.method} ${req.url} HTTP/1.1`, req.rawHeaders);
    req.on('data', (chunk: Buffer) => (traffic.bytes += chunk.length));
    const apiPath = (req.url ?? '').slice(target.pathname.length);
    const productRead = req.method === 'GET' && PRODUCT_READ.test(apiPath);
    const upstreamReq = request(
      { hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (upstreamRes: IncomingMessage) => {
        traffic.bytes += headBytes(`HTTP/1.1 ${upstreamRes.statusCode} ${upstreamRes.statusMessage}`, upstreamRes.rawHeaders);
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (chunk: Buffer) => {
          traffic.bytes += chunk.length;
          if (productRead) chunks.push(chunk);
        });
        upstreamRes.on('end', () => {
          if (productRead && upstreamRes.statusCode === 200) traffic.productRows += rowsIn(Buffer.concat(chunks), upstreamRes.headers['content-encoding']);
        });
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.rawHeaders);
        upstreamRes.pipe(res);
      },
    );
    upstreamReq.on('error', () => req.socket.destroy());
    req.pipe(upstreamReq);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    traffic: () => ({ ...traffic }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What happened between two readings. */
export const trafficSince = (before: Traffic, after: Traffic): Traffic => ({
  requests: after.requests - before.requests,
  bytes: after.bytes - before.bytes,
  productRows: after.productRows - before.productRows,
});
