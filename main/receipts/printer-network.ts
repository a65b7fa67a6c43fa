import ipaddr from 'ipaddr.js';

/**
 * Where the server may connect to print: private LAN addresses (RFC 1918 IPv4,
 * IPv6 unique-local) on the raw printing ports, unless the operator widens it.
 * A receipt printer lives on the shop's network; anything else (this computer,
 * link-local, the internet) is a way to make the server reach where it should not.
 */
export interface PrinterNetworkPolicy {
  /** Ports a printer may listen on, as inclusive ranges. */
  ports: readonly (readonly [number, number])[];
  /** Further address ranges that are allowed, from `PRINTER_ALLOW_ADDRESSES`. */
  allowed: readonly (readonly [ipaddr.IPv4 | ipaddr.IPv6, number])[];
}

/** The raw printing ports of JetDirect/AppSocket printers. */
export const DEFAULT_PRINTER_PORTS = '9100-9102';

const LOOPBACK_RANGES = ['127.0.0.0/8', '::1/128'];
const PRIVATE_RANGES = '10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7';

/** `PRINTER_PORTS`: comma-separated ports and ranges, e.g. "9100-9102,515". */
export function parsePrinterPorts(text: string | undefined): [number, number][] {
  const value = text?.trim() ? text : DEFAULT_PRINTER_PORTS;
  return value.split(',').map((part) => {
    const match = /^\s*(\d{1,5})(?:\s*-\s*(\d{1,5}))?\s*$/.exec(part);
    const from = Number(match?.[1]);
    const to = match?.[2] === undefined ? from : Number(match[2]);
    if (!match || from < 1 || to > 65535 || from > to) {
      throw new Error(`PRINTER_PORTS must list ports or ranges from 1 to 65535 separated by commas, e.g. "9100-9102,515", not ${JSON.stringify(text)}`);
    }
    return [from, to];
  });
}

/** `PRINTER_ALLOW_ADDRESSES`: comma-separated `loopback` and CIDR ranges (e.g. "203.0.113.0/24") allowed beyond the private LAN. */
export function parsePrinterAllowAddresses(text: string | undefined, setting = 'PRINTER_ALLOW_ADDRESSES'): [ipaddr.IPv4 | ipaddr.IPv6, number][] {
  const parts = (text ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
  return parts.flatMap((part) => {
    const cidrs = part === 'loopback' ? LOOPBACK_RANGES : [part];
    return cidrs.map((cidr) => {
      try {
        return ipaddr.parseCIDR(cidr);
      } catch {
        throw new Error(`${setting} must list "loopback" and CIDR ranges such as "203.0.113.0/24" separated by commas; ${JSON.stringify(part)} is neither`);
      }
    });
  });
}

export function printerNetworkPolicy(env: { PRINTER_PORTS?: string | undefined; PRINTER_ALLOW_ADDRESSES?: string | undefined } = {}): PrinterNetworkPolicy {
  return { ports: parsePrinterPorts(env.PRINTER_PORTS), allowed: parsePrinterAllowAddresses(env.PRINTER_ALLOW_ADDRESSES) };
}

const portList = (policy: PrinterNetworkPolicy) => policy.ports.map(([from, to]) => (from === to ? String(from) : `${from}-${to}`)).join(', ');

/** Why a printer may not use this port, or undefined when it may. */
export function printerPortProblem(port: number, policy: PrinterNetworkPolicy): string | undefined {
  if (policy.ports.some(([from, to]) => port >= from && port <= to)) return undefined;
  return `Port ${port} is not a printer port this server prints to (${portList(policy)}); the PRINTER_PORTS setting allows others`;
}

const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this computer itself)',
  linkLocal: 'a link-local address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
};

/** An IP address text without the brackets an IPv6 host may carry. */
export const bareAddress = (host: string): string => host.replace(/^\[(.*)\]$/, '$1');

/**
 * Why the server may not connect to this IP address, or undefined when it may.
 * IPv4-mapped IPv6 addresses are judged as the IPv4 address they carry.
 */
export function printerAddressProblem(address: string, policy: PrinterNetworkPolicy): string | undefined {
  return lanAddressProblem(address, policy.allowed, { device: 'printer', setting: 'PRINTER_ALLOW_ADDRESSES' })?.problem;
}

/**
 * Why a device may not be reached at this IP address, and whether an allowed
 * range (rather than the private LAN) lets it; undefined problem when it may.
 */
export function lanAddressProblem(
  address: string,
  allowed: PrinterNetworkPolicy['allowed'],
  words: { device: string; setting: string },
): { problem: string } | { problem: undefined; widened: boolean } {
  const text = bareAddress(address);
  if (!ipaddr.isValid(text)) return { problem: `${JSON.stringify(address)} is not an IP address` };
  const ip = ipaddr.process(text);
  if (allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return { problem: undefined, widened: true };
  const range = ip.range();
  if ((ip.kind() === 'ipv4' && range === 'private') || (ip.kind() === 'ipv6' && range === 'uniqueLocal')) return { problem: undefined, widened: false };
  const what = RANGE_WORDS[range] ?? 'not on a private network (a public or reserved address)';
  const device = words.device[0]!.toUpperCase() + words.device.slice(1);
  return { problem: `${device} address ${ip.toString()} is ${what}: a ${words.device} must be on the store's private network (${PRIVATE_RANGES}); the ${words.setting} setting allows others` };
}
