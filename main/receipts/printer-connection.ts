import { lookup as dnsLookup } from 'node:dns/promises';
import { BadRequest } from '../services/errors.js';
import { bareAddress, printerAddressProblem, printerPortProblem, type PrinterNetworkPolicy } from './printer-network.js';
import { DEFAULT_PRINTER_SOCKET_OPTIONS, sendToPrinter, type PrintAttempt, type PrinterSocketOptions } from './printer-socket.js';
import { printerName } from '../../shared/receipt/printer-address.js';

/** Resolves a host name to one address, as `dns.lookup` does. */
export type LookupAddress = (host: string) => Promise<string>;

export const systemLookup: LookupAddress = async (host) => (await dnsLookup(host, { verbatim: true })).address;

/** The address resolution failed: the printer is unreachable for now, not a refused address. */
export class PrinterNotFound extends Error {}

/**
 * The one way the server reaches a printer: resolves its host once, checks the
 * address and port against the policy, and connects to exactly the address it
 * checked, so a name that resolves differently the second time cannot lead
 * elsewhere. A refused address or port throws BadRequest naming the rule,
 * before any connection is made.
 */
export function createPrinterConnection(deps: { policy: PrinterNetworkPolicy; lookup?: LookupAddress; socket?: PrinterSocketOptions }) {
  const lookup = deps.lookup ?? systemLookup;

  /** The address the server will connect to for this printer; BadRequest when a rule refuses it, PrinterNotFound when the name does not resolve. */
  async function checkedAddress(printer: { host: string; port: number }): Promise<string> {
    const portProblem = printerPortProblem(printer.port, deps.policy);
    if (portProblem) throw new BadRequest(portProblem);
    let address: string;
    try {
      address = await lookup(bareAddress(printer.host));
    } catch (err) {
      throw new PrinterNotFound(`No printer answers at ${printerName(printer)}: its name could not be resolved (${(err as NodeJS.ErrnoException).code ?? 'lookup failed'}); check its address.`);
    }
    const problem = printerAddressProblem(address, deps.policy);
    if (problem) throw new BadRequest(address === bareAddress(printer.host) ? problem : `${printer.host} resolves to ${address}. ${problem}`);
    return address;
  }

  return {
    checkedAddress,
    /** Sends the commands (nothing for a status check) to the printer; a name that does not resolve is an offline printer. */
    async send(printer: { host: string; port: number }, commands: Buffer): Promise<PrintAttempt> {
      let address: string;
      try {
        address = await checkedAddress(printer);
      } catch (err) {
        if (err instanceof PrinterNotFound) return { state: 'offline', message: err.message };
        throw err;
      }
      return sendToPrinter(printer, address, commands, deps.socket ?? DEFAULT_PRINTER_SOCKET_OPTIONS);
    },
  };
}

export type PrinterConnection = ReturnType<typeof createPrinterConnection>;
