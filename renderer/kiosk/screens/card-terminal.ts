import { isUnsettled, type TerminalPayment } from '../card-payment.js';
import { cardOutcome, type CardOutcome } from '../card-outcome.js';
import { h, replaceChildren } from '../dom.js';
import type { MessageKey, Translate } from '../i18n/index.js';
import { helpButtonText } from './help.js';

/** What the customer can do on the card step. */
export interface CardActions {
  cancel(): void;
  retry(): void;
  otherMethod(): void;
  /** The help screen, with the way back to this step. */
  callStaff(): void;
}

/**
 * How long a cancel may stay unanswered before the screen says the terminal
 * does not answer and offers help: the customer is never left guessing.
 */
export const CANCEL_ANSWER_MS = 4000;

/** Where the card step stands, as the screen tells it. */
type Phase = 'starting' | CardOutcome | 'failed';

const HEADLINE: Record<Phase, MessageKey> = {
  starting: 'cardStarting',
  pending: 'cardFollowTerminal',
  confirming: 'cardAsking',
  approved: 'cardApproved',
  declined: 'cardDeclined',
  busy: 'cardBusy',
  cancelled: 'cardCancelled',
  unreachable: 'cardUnreachable',
  reversed: 'cardReversed',
  failed: 'cardFailed',
};

/**
 * The card step: where the payment stands, in the kiosk's own words (present
 * the card, still confirming, approved, declined, busy, terminal away),
 * *Cancel* while the payment is open, *Call staff* when a cancel gets no
 * answer, and *Try again* or another method once it ended without approval.
 * What the terminal or the server said goes to the log for staff. It updates
 * in place, so the focus stays on *Cancel* while the state changes.
 */
export class CardTerminalScreen {
  private readonly root = h('section', { class: 'screen panel card-step', 'data-screen': 'card', 'aria-labelledby': 'card-title' });
  private t: Translate | undefined;
  private payment: TerminalPayment | undefined;
  private waiting = false;
  private cancelling = false;
  private cancelUnanswered = false;
  private cancelTimer: ReturnType<typeof setTimeout> | undefined;
  private failure: string | undefined;
  private shown = '';

  constructor(
    private readonly amount: number,
    private readonly actions: CardActions,
  ) {}

  private get phase(): Phase {
    if (this.failure !== undefined) return 'failed';
    return this.payment ? cardOutcome(this.payment) : 'starting';
  }

  private get open(): boolean {
    return this.failure === undefined && (!this.payment || isUnsettled(this.payment));
  }

  /** The screen in the customer's language. */
  render(t: Translate): HTMLElement {
    this.t = t;
    this.shown = '';
    this.draw();
    return this.root;
  }

  update(payment: TerminalPayment | undefined, waiting: boolean): void {
    this.payment = payment;
    this.waiting = waiting;
    if (!this.open) this.endCancel();
    this.draw();
  }

  /** The server refused to start the payment; `message` says why in the customer's words. */
  fail(message: string): void {
    this.failure = message;
    this.endCancel();
    this.draw();
  }

  private endCancel(): void {
    this.cancelling = false;
    this.cancelUnanswered = false;
    clearTimeout(this.cancelTimer);
  }

  private headline(phase: Phase): MessageKey {
    if (this.open && this.cancelUnanswered) return 'cardCancelNoAnswer';
    // Without an answer from its server the kiosk does not know what the terminal shows: it says so rather than repeat an old instruction.
    if (this.waiting && (phase === 'starting' || phase === 'pending')) return 'cardChecking';
    return HEADLINE[phase];
  }

  private draw(): void {
    const t = this.t;
    if (!t) return;
    const phase = this.phase;
    const headline = this.headline(phase);
    const key = JSON.stringify([phase, headline, this.waiting, this.cancelling, this.failure, t.language]);
    if (key === this.shown) return;
    this.shown = key;
    const focused = this.root.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.action : undefined;
    const state = this.failure !== undefined ? 'failed' : (this.payment?.state ?? 'starting');
    replaceChildren(
      this.root,
      h('h1', { id: 'card-title' }, t('cardTitle', { amount: t.money(this.amount) })),
      h(
        'div',
        { class: 'terminal-display', role: 'status', 'data-payment-state': state, 'data-outcome': phase, ...(this.payment ? { 'data-payment': this.payment.id } : {}) },
        h('p', { class: 'lead', 'data-headline': headline }, t(headline)),
        phase === 'failed' && h('p', { class: 'error' }, this.failure),
        this.waiting && h('p', { 'data-waiting': '' }, t('cardWaiting')),
      ),
      h('div', { class: 'actions' }, this.buttons(t, phase)),
    );
    if (focused) this.root.querySelector<HTMLElement>(`[data-action="${focused}"]`)?.focus();
  }

  private buttons(t: Translate, phase: Phase): HTMLElement[] {
    if (this.open) {
      const cancel = () => {
        if (this.cancelling) return;
        this.cancelling = true;
        this.cancelTimer = setTimeout(() => {
          this.cancelUnanswered = true;
          this.draw();
        }, CANCEL_ANSWER_MS);
        this.draw();
        this.actions.cancel();
      };
      const cancelButton = h('button', { class: 'secondary', 'data-action': 'cancel-payment', disabled: this.cancelling, onclick: cancel }, t(this.cancelling ? 'cardCancelling' : 'cancel'));
      if (!this.cancelUnanswered) return [cancelButton];
      return [cancelButton, h('button', { class: 'primary', 'data-action': 'call-staff', onclick: () => this.actions.callStaff() }, helpButtonText(t))];
    }
    if (phase === 'approved') return [];
    return [
      h('button', { class: 'secondary', 'data-action': 'other-method', onclick: () => this.actions.otherMethod() }, t('cardOtherMethod')),
      h('button', { class: 'primary', 'data-action': 'retry-payment', onclick: () => this.actions.retry() }, t('cardRetry')),
    ];
  }
}
