import { normalizeOrigin } from './local-names.js';

const items = (value: string | undefined): string[] =>
  (value ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');

/** `ALLOWED_HOSTS`: further names of this server, e.g. `kasse-1.local,192.168.1.20`. */
export function parseAllowedHosts(value: string | undefined): string[] {
  return items(value).map((name) => {
    if (!/^(?:\[[0-9a-f:.]+\]|[0-9a-f:.]*:[0-9a-f:.]*|[a-z0-9.-]+)$/i.test(name)) {
      throw new Error(`ALLOWED_HOSTS holds names without port or scheme, comma-separated; ${JSON.stringify(name)} is not one`);
    }
    return name.toLowerCase().replace(/^\[|\]$/g, '');
  });
}

/** `ALLOWED_ORIGINS`: web apps allowed to call the API from a browser, e.g. `https://backoffice.example`. */
export function parseAllowedOrigins(value: string | undefined): string[] {
  return items(value).map((origin) => {
    const normalized = normalizeOrigin(origin);
    const bare = normalized !== undefined && new URL(origin).href === `${normalized}/`;
    if (normalized === undefined || !bare) {
      throw new Error(`ALLOWED_ORIGINS holds origins such as https://backoffice.example (scheme, host, optional port), comma-separated; ${JSON.stringify(origin)} is not one`);
    }
    return normalized;
  });
}
