/**
 * The policy for every page the server sends: scripts, styles and fonts only
 * from files of this server; images may come from anywhere, since a store's
 * logo and backgrounds are URLs its settings name.
 */
export const CONTENT_SECURITY_POLICY_DIRECTIVES = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:', 'http:', 'https:'],
  'media-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The same policy as one header value, for the desktop window to add where a response lacks it. */
export const CONTENT_SECURITY_POLICY = Object.entries(CONTENT_SECURITY_POLICY_DIRECTIVES)
  .map(([name, sources]) => `${name} ${sources.join(' ')}`)
  .join('; ');
