import type { Session, WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../security/content-security-policy.js';
import { isAllowedNavigation } from './window.js';

type GuardedSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'webRequest'>;
type GuardedContents = Pick<WebContents, 'setWindowOpenHandler' | 'on'>;

/** A self-checkout needs no camera, microphone, location, notifications or anything else a page may ask for. */
export function denyAllPermissions(session: GuardedSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * The server sends the policy its pages are written for; the window adds it to
 * any response of the local server that comes without one, so a page is never
 * shown unprotected.
 */
export function addContentSecurityPolicy(session: GuardedSession, origin: string): void {
  session.webRequest.onHeadersReceived({ urls: [`${origin}/*`] }, (details, callback) => {
    const headers = details.responseHeaders ?? {};
    const hasPolicy = Object.keys(headers).some((name) => name.toLowerCase() === 'content-security-policy');
    callback({ responseHeaders: hasPolicy ? headers : { ...headers, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
}

/** No new windows, no pages outside the local server, no embedded guests. */
export function confineToOrigin(contents: GuardedContents, origin: string): void {
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  const guard = (event: { preventDefault(): void }, url: string) => {
    if (!isAllowedNavigation(url, origin)) event.preventDefault();
  };
  contents.on('will-navigate', guard);
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
