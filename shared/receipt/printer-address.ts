/** Port of the raw TCP printing service of network receipt printers (JetDirect/AppSocket). */
export const DEFAULT_PRINTER_PORT = 9100;

/** Characters of a host name or an IP address (an IPv6 one in brackets). */
export const PRINTER_HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/**
 * A printer address as staff type it: "192.168.1.50", "drucker.local:9101",
 * "[fd00::5]:9100". Undefined when it is none.
 */
export function parsePrinterAddress(text: string): { host: string; port: number } | undefined {
  const value = text.trim();
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(value);
  if (!match) return undefined;
  const host = match[1] as string;
  const port = match[2] === undefined ? DEFAULT_PRINTER_PORT : Number(match[2]);
  if (!PRINTER_HOST.test(host) || host.length > 253 || port < 1 || port > 65535) return undefined;
  return { host, port };
}

/** How staff and the status page name a network printer: `host:port`. */
export const printerName = (printer: { host: string; port: number }): string => `${printer.host}:${printer.port}`;
