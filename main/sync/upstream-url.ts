import ipaddr from 'ipaddr.js';

/** `SYNC_ALLOW_HTTP_HOSTS`: comma-separated host names or addresses a plain http:// upstream may have (test rigs, a lab). */
export function parseSyncHttpHosts(text: string | undefined): string[] {
  return (text ?? '').split(',').map((host) => host.trim().toLowerCase()).filter((host) => host !== '');
}

const isLoopback = (hostname: string): boolean => {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost') return true;
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
};

/**
 * Why an upstream URL may not be used, or undefined when it may: the upstream
 * gets the organization's write key on every call, so it goes over https://
 * only; plain http:// stays on this computer or on hosts the operator listed.
 */
export function upstreamUrlProblem(url: URL, allowHttpHosts: readonly string[]): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return 'must start with https://';
  const host = url.hostname.toLowerCase();
  if (isLoopback(host) || allowHttpHosts.includes(host) || allowHttpHosts.includes(host.replace(/^\[(.*)\]$/, '$1'))) return undefined;
  return `must start with https://: plain http:// would send the upstream write key readable by anyone on the network (plain http only to this computer, or to hosts listed in SYNC_ALLOW_HTTP_HOSTS)`;
}
