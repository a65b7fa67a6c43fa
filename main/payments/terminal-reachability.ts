import { connect } from 'node:tls';
import type { TerminalEndpoint } from './terminal-protocol.js';

/** How long a probe waits for the terminal's TLS handshake. */
const PROBE_TIMEOUT_MS = 2000;
/** A probe's answer is reused for this long: kiosks poll, the terminal is not asked for each of them. */
const FRESH_MS = 5000;

/**
 * Whether a terminal answers on its address: a TLS handshake whose
 * certificate chains to the terminal's registered CA. Nothing is sent
 * inside the connection, so no transaction can start.
 */
export function probeTerminal(endpoint: Pick<TerminalEndpoint, 'host' | 'port' | 'certificate'>, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: endpoint.host, port: endpoint.port, ca: endpoint.certificate });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('secureConnect', () => done(socket.authorized));
    socket.once('error', () => done(false));
  });
}

/**
 * The terminals' reachability as `GET /terminals` tells it (card payments are
 * online only, so the kiosk offers *Card* only while its terminal answers).
 * Answers are kept a few seconds, and probes of one terminal are shared.
 */
export function createTerminalReachability(deps: { now: () => number; probe?: typeof probeTerminal }) {
  const probe = deps.probe ?? probeTerminal;
  const known = new Map<string, { at: number; answer: Promise<boolean> }>();
  return {
    reachable(id: string, endpoint: TerminalEndpoint | undefined): Promise<boolean> {
      if (!endpoint) return Promise.resolve(false);
      const last = known.get(id);
      if (last && deps.now() - last.at < FRESH_MS) return last.answer;
      const answer = probe(endpoint);
      known.set(id, { at: deps.now(), answer });
      return answer;
    },
  };
}

export type TerminalReachability = ReturnType<typeof createTerminalReachability>;
