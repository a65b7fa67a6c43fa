import type { ApiClient } from './api-client.js';

const POLL_MS = 10_000;

/**
 * Follows whether a card terminal of the kiosk's store answers (`GET
 * /terminals`, then `POST /terminals/{id}/check` for each). Card payments are
 * online only: no answer, no terminal, or an older server that knows no
 * terminals all mean *Card* is not offered.
 */
export function watchTerminals(api: Pick<ApiClient, 'terminals' | 'checkTerminal'>, onChange: (reachable: boolean) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let last: boolean | undefined;
  const poll = async () => {
    let reachable = false;
    try {
      const checks = await Promise.all((await api.terminals()).map((terminal) => api.checkTerminal(terminal.id)));
      reachable = checks.some((check) => check.reachable);
    } catch (err) {
      console.warn('the card terminals could not be read; card payments are not offered', err);
    }
    if (reachable !== last) onChange((last = reachable));
    if (!stopped) timer = setTimeout(poll, POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
