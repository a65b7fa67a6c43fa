import { once } from 'node:events';
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the proxy did to the requests that passed it. */
export interface FaultCounts {
  /** Forwarded, and the server's answer thrown away: the client never hears how it went. */
  lostAnswers: Record<string, number>;
  /** Refused while the network was down: the server never heard of them. */
  dropped: number;
}

export interface FaultProxy {
  url: string;
  counts: FaultCounts;
  /** Every request fails, unanswered and unforwarded, for `ms`. */
  dropFor(ms: number): void;
  close(): Promise<void>;
}

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/**
 * The kiosk's network to its server, with faults: `loseAnswer(method, path)`
 * names the step (a key of `lostAnswers`) whose answer is to be lost this
 * time, or undefined; the request reaches the server and the connection is
 * then cut before the answer. A server that is down cuts it too.
 */
export async function startFaultProxy(target: { host: string; port: number }, loseAnswer: (method: string, path: string) => string | undefined): Promise<FaultProxy> {
  const counts: FaultCounts = { lostAnswers: {}, dropped: 0 };
  let droppedUntil = 0;
  const server = createServer((req, res) => {
    if (Date.now() < droppedUntil) {
      counts.dropped += 1;
      req.socket.destroy();
      return;
    }
    void readBody(req).then((body) => {
      const step = loseAnswer(req.method ?? 'GET', req.url ?? '/');
      const upstream = request({ ...target, path: req.url, method: req.method, headers: req.headers, agent: false }, (answer) => {
        void readBody(answer).then(
          (text) => {
            if (step) {
              counts.lostAnswers[step] = (counts.lostAnswers[step] ?? 0) + 1;
              res.socket?.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(text);
          },
          () => res.socket?.destroy(),
        );
      });
      upstream.on('error', () => res.socket?.destroy());
      upstream.end(body);
    }, () => req.socket.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    dropFor: (ms) => {
      droppedUntil = Math.max(droppedUntil, Date.now() + ms);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
