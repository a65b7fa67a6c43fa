import type { SyncConfigStore, SyncState } from './config-store.js';
import type { Upstream } from './upstream.js';

type Phase = 'pushing' | 'pulling';

/**
 * The state `GET /sync` shows while a round runs. After a round that could
 * not reach the upstream (or whose key it refused), the next round keeps
 * showing that state until the upstream answers one of its calls with a
 * success: a retry against an upstream that is still down does not flicker
 * to `pushing` on the staff page and in the fleet list.
 */
export function createRoundState(configs: SyncConfigStore, orgId: string, before: SyncState) {
  let down = before === 'offline' || before === 'refused';
  let phase: Phase = 'pushing';
  return {
    /** The round moves on to `next`; shown at once unless the upstream has not answered yet. */
    enter(next: Phase): void {
      phase = next;
      if (!down) configs.setState(orgId, next);
    },
    /** `upstream`, whose first success shows the round's phase. */
    watch(upstream: Upstream): Upstream {
      return {
        send: async (request) => {
          const result = await upstream.send(request);
          if (down && result.kind === 'answer' && result.status >= 200 && result.status < 300) {
            down = false;
            configs.setState(orgId, phase);
          }
          return result;
        },
      };
    },
  };
}
