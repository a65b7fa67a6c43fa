import { connect } from 'node:net';
import { DEFAULT_TERMINAL_PORT } from '../../shared/api/terminals.js';
import { lanAddressProblem, parsePrinterAllowAddresses, type PrinterNetworkPolicy } from '../receipts/printer-network.js';

const SETTING = 'TERMINAL_ALLOW_ADDRESSES';

/** Where the server may reach a card terminal: `TERMINAL_ALLOW_ADDRESSES` (`loopback`, CIDR ranges) beyond the private LAN. */
export interface TerminalNetworkPolicy {
  allowed: PrinterNetworkPolicy['allowed'];
}

export function terminalNetworkPolicy(env: { TERMINAL_ALLOW_ADDRESSES?: string | undefined } = {}): TerminalNetworkPolicy {
  return { allowed: parsePrinterAllowAddresses(env.TERMINAL_ALLOW_ADDRESSES, SETTING) };
}

/**
 * Why the server may not reach a terminal there, or undefined. On the private
 * LAN only the Terminal API's port 8443; an address the setting allows, any port.
 */
export function terminalAddressProblem(host: string, port: number, policy: TerminalNetworkPolicy): string | undefined {
  const verdict = lanAddressProblem(host, policy.allowed, { device: 'Terminal', setting: SETTING });
  if (verdict.problem !== undefined) return `${verdict.problem}${/is not an IP address/.test(verdict.problem) ? ": enter the terminal's IP address" : ''}`;
  if (!verdict.widened && port !== DEFAULT_TERMINAL_PORT) {
    return `Port ${port} is not the Terminal API's port ${DEFAULT_TERMINAL_PORT}; only addresses the ${SETTING} setting allows may use other ports`;
  }
  return undefined;
}

/** How long registration waits for a terminal to take a connection: on the LAN it takes milliseconds. */
export const CONNECT_CHECK_MS = 3000;

/**
 * Why nothing can be connected to at that address, or undefined once a TCP
 * connection is up (closed at once: nothing is sent). Staff registering a
 * terminal learn then, not at the first customer's card, that the address is
 * wrong or the terminal is off.
 */
export function terminalConnectProblem(host: string, port: number, timeoutMs = CONNECT_CHECK_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[(.*)\]$/, '$1'), port });
    const end = (problem: string | undefined) => {
      socket.destroy();
      resolve(problem);
    };
    socket.setTimeout(timeoutMs, () => end(`no answer within ${timeoutMs / 1000} s`));
    socket.once('connect', () => end(undefined));
    socket.once('error', (err: NodeJS.ErrnoException) => end(err.code ?? err.message));
  }).then((why) =>
    why === undefined
      ? undefined
      : `nothing can be connected to at ${host}:${port} (${why}): check that the terminal is switched on and on the store network, and that this is the IP address its network settings show`,
  );
}
