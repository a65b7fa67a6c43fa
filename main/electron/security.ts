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

/**
 * The kiosk's key stays in the main process: it is added as the Authorization
 * header to the page's requests to the local server, and to nothing else, so
 * no script in the page can read it or send it elsewhere.
 */
export function sendKeyToLocalServer(session: GuardedSession, origin: string, key: string): void {
  session.webRequest.onBeforeSendHeaders({ urls: [`${origin}/*`] }, (details, callback) => {
    if (new URL(details.url).origin !== origin) return callback({ requestHeaders: details.requestHeaders });
    const headers = Object.fromEntries(Object.entries(details.requestHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'));
    callback({ requestHeaders: { ...headers, Authorization: `Bearer ${key}` } });
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
