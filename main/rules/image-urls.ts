import { imageTypeOfExtension } from './image-types.js';

/** Path segment, under the API base, where stored images are served. */
export const IMAGES_PATH = 'images';

const STORED_NAME = /^[A-Za-z0-9]{20}\.([a-z]+)$/;

/**
 * Whether a name has the form the image store gives its files: 20 random
 * letters and digits and the extension of an accepted type. Anything else,
 * including every path with a separator or a dot segment, is not a stored image.
 */
export function isStoredImageName(name: string): boolean {
  const match = STORED_NAME.exec(name);
  return match?.[1] !== undefined && imageTypeOfExtension(match[1]) !== undefined;
}

/** The absolute URL of a stored image; `apiBase` is the absolute URL of `/api/v1`. */
export function imageUrlOf(apiBase: string, name: string): string {
  return `${apiBase}/${IMAGES_PATH}/${name}`;
}

/**
 * The stored image an `imageUrl` names (last path segment after `/images/`),
 * whatever host it was issued under, or undefined for any other URL.
 */
export function storedImageNameIn(imageUrl: string): string | undefined {
  if (imageUrl === '') return undefined;
  let path: string;
  try {
    path = new URL(imageUrl, 'http://localhost').pathname;
  } catch {
    return undefined;
  }
  const segments = path.split('/');
  const name = segments.at(-1) ?? '';
  return segments.at(-2) === IMAGES_PATH && isStoredImageName(name) ? name : undefined;
}

/**
 * Reads `PUBLIC_URL`: the absolute http(s) address under which browsers reach
 * this server, e.g. `http://kasse-1.local:8787`. A trailing `/` or `/api/v1`
 * is dropped, so the API's base URL may be given as well.
 */
export function parsePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute URL such as http://kasse-1.local:8787, not ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`PUBLIC_URL must start with http:// or https://, not ${JSON.stringify(value)}`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new Error(`PUBLIC_URL must not carry a query, fragment or credentials: ${JSON.stringify(value)}`);
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  return `${url.origin}${path}`;
}

const HOST_HEADER = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The origin a request was addressed to, from its `Host` header, so that a
 * kiosk reaching the server as `kasse-1.local` gets URLs with that name.
 * A missing or malformed `Host` falls back to the local address the request came in on.
 */
export function requestOrigin(protocol: string, host: string | undefined, local: { address: string; port: number }): string {
  if (host !== undefined && HOST_HEADER.test(host)) {
    try {
      return new URL(`${protocol}://${host}`).origin;
    } catch {
      // an out-of-range port: fall back to the local address
    }
  }
  const address = local.address.includes(':') ? `[${local.address}]` : local.address;
  return new URL(`${protocol}://${address}:${local.port}`).origin;
}
