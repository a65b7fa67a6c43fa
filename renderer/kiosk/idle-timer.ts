/** The countdown becomes visible this many seconds before the purchase is cancelled. */
const VISIBLE_COUNTDOWN_S = 10;

export interface IdleTimer {
  /** A touch, a key or a scan: the customer is still there. */
  touch(): void;
  stop(): void;
}

/**
 * Cancels a purchase nobody is finishing. After `seconds` without a touch,
 * a key or a scan `onExpire` runs; during the last seconds `onTick` shows
 * what is left (and 0 hides it again). `active()` says whether there is a
 * purchase to cancel at all.
 */
export function startIdleTimer(seconds: number, active: () => boolean, onTick: (remaining: number) => void, onExpire: () => void): IdleTimer {
  let last = Date.now();
  let shown = 0;
  const tick = () => {
    if (!active()) {
      last = Date.now();
      if (shown) onTick((shown = 0));
      return;
    }
    const remaining = Math.ceil(seconds - (Date.now() - last) / 1000);
    if (remaining <= 0) {
      shown = 0;
      onTick(0);
      last = Date.now();
      onExpire();
    } else if (remaining <= VISIBLE_COUNTDOWN_S) {
      if (remaining !== shown) onTick((shown = remaining));
    } else if (shown) {
      onTick((shown = 0));
    }
  };
  const interval = setInterval(tick, 250);
  return {
    touch() {
      last = Date.now();
      tick();
    },
    stop: () => clearInterval(interval),
  };
}
