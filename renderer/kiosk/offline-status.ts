import { ApiError, type ApiClient, type SyncStatus } from './api-client.js';

const POLL_MS = 15_000;

/**
 * Follows `GET /sync` of a server that syncs with an upstream. A server
 * without sync answers 404, and a kiosk key may not read it (403): then the
 * kiosk is never shown offline and polling stops.
 */
export function watchSync(api: ApiClient, onChange: (status: SyncStatus | undefined) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const poll = async () => {
    try {
      onChange(await api.sync());
    } catch (err) {
      onChange(undefined);
      if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return;
    }
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** The upstream cannot be reached: sales are stored here and wait. */
export const isOffline = (status: SyncStatus | undefined) => status?.state === 'offline';
