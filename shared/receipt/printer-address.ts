/** Port of the raw TCP printing service of network receipt printers (JetDirect/AppSocket). */
export const DEFAULT_PRINTER_PORT = 9100;

/** Characters of a host name or an IP address (an IPv6 one in brackets). */
export const PRINTER_HOST = /^[A-Za-z0-9.\-:[\]]+$/;

/** How staff and the status page name a network printer: `host:port`. */
export const printerName = (printer: { host: string; port: number }): string => `${printer.host}:${printer.port}`;
