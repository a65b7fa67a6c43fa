/**
 * Who may address this server. A web page on the store PC can reach
 * 127.0.0.1 through DNS rebinding (its own name resolving to 127.0.0.1), so
 * a request is answered only when its `Host` names this server and, when the
 * browser says where the request comes from (`Origin`), that origin is this
 * server or one the operator listed.
 */
export interface LocalNames {
  /** Host names (lowercase, IPv6 without brackets) that name this server. */
  hosts: ReadonlySet<string>;
  /** Origins of other web apps allowed to call the API from a browser (with CORS). */
  corsOrigins: ReadonlySet<string>;
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '']);

/** Lowercase host name without port or IPv6 brackets, or undefined when the value is not a host. */
export function hostNameOf(hostHeader: string): string | undefined {
  const match = /^(?:\[([0-9a-f:.]+)\]|([a-z0-9.-]+))(?::\d{1,5})?$/i.exec(hostHeader.trim());
  if (!match) return undefined;
  return (match[1] ?? match[2] ?? '').toLowerCase().replace(/\.$/, '');
}

/** Normalizes an origin as browsers send it (`scheme://host[:port]`), or undefined when it is not one. */
export function normalizeOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export function localNames(config: {
  host: string;
  publicUrl?: string | undefined;
  allowedHosts: readonly string[];
  allowedOrigins: readonly string[];
}): LocalNames {
  const hosts = new Set(['localhost', '127.0.0.1', '::1']);
  const listen = hostNameOf(config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host);
  if (listen !== undefined && !WILDCARD_ADDRESSES.has(listen)) hosts.add(listen);
  if (config.publicUrl !== undefined) hosts.add(new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, '').toLowerCase());
  for (const name of config.allowedHosts) hosts.add(name.toLowerCase().replace(/^\[|\]$/g, ''));
  return { hosts, corsOrigins: new Set(config.allowedOrigins) };
}

/**
 * Whether the `Host` of a request names this server. `localAddress` is the
 * address the connection arrived on: a client that typed this PC's IP address
 * reaches it by that address, which no other site's name can stand for.
 */
export function isOwnHost(names: LocalNames, hostHeader: string | undefined, localAddress: string | undefined): boolean {
  if (hostHeader === undefined) return false;
  const name = hostNameOf(hostHeader);
  if (name === undefined) return false;
  if (names.hosts.has(name)) return true;
  const local = localAddress?.replace(/^::ffff:/, '').toLowerCase();
  return local !== undefined && (name === local || name === localAddress?.toLowerCase());
}

/**
 * Whether a browser request's `Origin` may be served: this server's own
 * origin (the one its allowed `Host` makes), or a listed one.
 */
export function isAllowedOrigin(names: LocalNames, origin: string, ownOrigin: string): boolean {
  const normalized = normalizeOrigin(origin);
  if (normalized === undefined) return false;
  return normalized === ownOrigin || names.corsOrigins.has(normalized);
}
