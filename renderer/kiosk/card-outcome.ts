import type { TerminalPayment } from './card-payment.js';

/** How a card payment stands, as the customer is told it: the kiosk's own words for each, never the terminal's or the server's. */
export type CardOutcome = 'pending' | 'confirming' | 'approved' | 'declined' | 'busy' | 'cancelled' | 'unreachable' | 'reversed';

/**
 * Tells apart the outcomes the customer acts on differently. The payment's
 * state says most; a busy terminal (declined) and one the server could not
 * reach (cancelled) are told by its `reason`: the message is written for
 * staff, in their words, and is never read here. A state this kiosk does not
 * know yet is shown as still being confirmed.
 */
export function cardOutcome(payment: Pick<TerminalPayment, 'state' | 'reason'>): CardOutcome {
  switch (payment.state) {
    case 'pending':
      return 'pending';
    case 'approved':
      return 'approved';
    case 'declined':
      return payment.reason === 'terminal-busy' ? 'busy' : 'declined';
    case 'cancelled':
      return payment.reason === 'terminal-not-reached' ? 'unreachable' : 'cancelled';
    case 'refunded':
      return 'reversed';
    default:
      return 'confirming';
  }
}
