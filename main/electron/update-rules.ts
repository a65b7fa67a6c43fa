/**
 * What the kiosk is doing, as far as an update is concerned: the page reports
 * its cart and a sale on its way through payment; the sales journal of the
 * main process reports paid sales not yet recorded by the server.
 */
export interface KioskActivity {
  cartEmpty: boolean;
  saleInFlight: boolean;
  salesWaiting: number;
}

/** Whether a downloaded update may install now, and why (for the log). */
export type InstallDecision = { install: true; reason: 'idle' | 'night hour' } | { install: false; reason: string };

/**
 * An update restarts the app, so it never interrupts a sale: not while one
 * is in payment or waiting to be recorded. With those clear it installs when
 * the cart is empty, or at the night hour also over a cart a customer left
 * behind (nobody is buying at that hour, and a restart clears the cart).
 * `now`'s hour is read in the PC's own time zone.
 */
export function installDecision(activity: KioskActivity, now: Date, nightHour: number): InstallDecision {
  if (activity.saleInFlight) return { install: false, reason: 'a sale is in payment' };
  if (activity.salesWaiting > 0) return { install: false, reason: `${activity.salesWaiting} paid sale(s) wait to be recorded` };
  if (activity.cartEmpty) return { install: true, reason: 'idle' };
  if (now.getHours() === nightHour) return { install: true, reason: 'night hour' };
  return { install: false, reason: 'a customer has items in the cart' };
}

/** Combines the page's last report with the counters of sales waiting to be recorded (the sales journal). */
export function combineActivity(page: () => Pick<KioskActivity, 'cartEmpty' | 'saleInFlight'>, waitingSales: readonly (() => number)[]): () => KioskActivity {
  return () => ({ ...page(), salesWaiting: waitingSales.reduce((sum, count) => sum + count(), 0) });
}
