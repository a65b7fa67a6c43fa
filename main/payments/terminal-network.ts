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
  const verdict = lanAddressProblem(host, policy.allowed, { device: 'terminal', setting: SETTING });
  if (verdict.problem !== undefined) return `${verdict.problem}${/is not an IP address/.test(verdict.problem) ? ": enter the terminal's IP address" : ''}`;
  if (!verdict.widened && port !== DEFAULT_TERMINAL_PORT) {
    return `Port ${port} is not the Terminal API's port ${DEFAULT_TERMINAL_PORT}; only addresses the ${SETTING} setting allows may use other ports`;
  }
  return undefined;
}
