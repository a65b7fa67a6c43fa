import autocannon from 'autocannon';
import { percentile } from './load.js';
import type { SoakKind } from './soak-mix.js';

export interface KindResult {
  name: string;
  connections: number;
  rate?: number;
  /** Requests answered, whatever the status. */
  answered: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Answers with a status other than the expected one. */
  unexpected: number;
  /** Socket errors and timeouts: requests that got no answer. */
  unanswered: number;
  timeouts: number;
  /** What went wrong, `<status> <message>` or the socket error's message, with how often. */
  reasons: Record<string, number>;
}

const count = (tally: Record<string, number>, reason: string) => {
  tally[reason] = (tally[reason] ?? 0) + 1;
};

/** The message an error answer carries, in the spec's error shapes, short enough to tally. */
function messageOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: unknown };
    const message = parsed.message ?? parsed.error;
    return (typeof message === 'string' ? message : JSON.stringify(message ?? parsed)).slice(0, 200);
  } catch {
    return body.slice(0, 200);
  }
}

/**
 * Sends one kind of request for `seconds` on its own connections, with
 * autocannon's default timeout of 10 s. Every answer is checked against the
 * kind's expected status, and every failure keeps its reason. Each answer's
 * latency also goes into `allLatencies`, for the percentiles of the whole mix.
 */
export async function runKind(url: string, kind: SoakKind, seconds: number, allLatencies: number[]): Promise<KindResult> {
  const latencies: number[] = [];
  const reasons: Record<string, number> = {};
  let non2xx = 0;
  let unexpected = 0;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: kind.connections,
        duration: seconds,
        ...(kind.rate === undefined ? {} : { overallRate: kind.rate }),
        requests: [
          {
            method: kind.method,
            setupRequest: (request) => {
              const next = kind.next();
              request.path = next.path;
              request.headers = {
                ...(next.key === undefined ? {} : { authorization: `Bearer ${next.key}` }),
                ...(next.body === undefined ? {} : { 'content-type': 'application/json' }),
              };
              if (next.body !== undefined) request.body = JSON.stringify(next.body);
              return request;
            },
            onResponse: (status, body) => {
              if (status === kind.expected) return kind.answered?.(body);
              unexpected += 1;
              count(reasons, `${status} ${messageOf(body)}`);
            },
          },
        ],
      },
      (err, done) => (err ? reject(err) : resolve(done)),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      allLatencies.push(ms);
      if (status < 200 || status > 299) non2xx += 1;
    });
    instance.on('reqError', (err: Error) => count(reasons, err.message));
  });
  latencies.sort((a, b) => a - b);
  return {
    name: kind.name,
    connections: kind.connections,
    rate: kind.rate,
    answered: latencies.length,
    rps: latencies.length / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx,
    unexpected,
    unanswered: result.errors,
    timeouts: result.timeouts,
    reasons,
  };
}
