import type { TerminalPayment } from '../card-payment.js';
import { h, replaceChildren } from '../dom.js';
import type { MessageKey, Translate } from '../i18n/index.js';

/** What the customer can do on the card step. */
export interface CardActions {
  cancel(): void;
  retry(): void;
  otherMethod(): void;
}

/** Where the card step stands, as the screen tells it. */
type Phase = 'starting' | TerminalPayment['state'] | 'failed';

const HEADLINE: Record<Phase, MessageKey> = {
  starting: 'cardStarting',
  pending: 'cardFollowTerminal',
  unknown: 'cardAsking',
  approved: 'cardApproved',
  declined: 'cardDeclined',
  cancelled: 'cardCancelled',
  refunding: 'cardCancelled',
  refunded: 'cardCancelled',
  'partially-refunded': 'cardCancelled',
  failed: 'cardFailed',
};

const isOpen = (phase: Phase) => phase === 'starting' || phase === 'pending' || phase === 'unknown';

/**
 * The card step: what the terminal says (present card, PIN, approved,
 * declined) as the server reports it, *Cancel* while the payment is open, and
 * *Try again* or another method once it ended without approval. It updates in
 * place, so the focus stays on *Cancel* while the terminal's words change.
 */
export class CardTerminalScreen {
  private readonly root = h('section', { class: 'screen panel card-step', 'data-screen': 'card', 'aria-labelledby': 'card-title' });
  private t: Translate | undefined;
  private payment: TerminalPayment | undefined;
  private waiting = false;
  private cancelling = false;
  private failure: string | undefined;
  private shown = '';

  constructor(
    private readonly amount: number,
    private readonly actions: CardActions,
  ) {}

  private get phase(): Phase {
    return this.failure !== undefined ? 'failed' : (this.payment?.state ?? 'starting');
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
    if (!payment || !isOpen(payment.state)) this.cancelling = false;
    this.draw();
  }

  /** The server refused to start the payment; `message` says why in the customer's words. */
  fail(message: string): void {
    this.failure = message;
    this.draw();
  }

  private draw(): void {
    const t = this.t;
    if (!t) return;
    const phase = this.phase;
    const message = this.payment?.message ?? '';
    const key = JSON.stringify([phase, message, this.waiting, this.cancelling, this.failure, t.language]);
    if (key === this.shown) return;
    this.shown = key;
    const focused = this.root.contains(document.activeElement) ? (document.activeElement as HTMLElement).dataset.action : undefined;
    replaceChildren(
      this.root,
      h('h1', { id: 'card-title' }, t('cardTitle', { amount: t.money(this.amount) })),
      h(
        'div',
        { class: 'terminal-display', role: 'status', 'data-payment-state': phase, ...(this.payment ? { 'data-payment': this.payment.id } : {}) },
        h('p', { class: 'lead' }, t(HEADLINE[phase])),
        phase !== 'failed' && message && h('p', { class: 'terminal-message', 'data-terminal-message': '' }, message),
        phase === 'failed' && h('p', { class: 'error' }, this.failure),
        this.waiting && h('p', { 'data-waiting': '' }, t('cardWaiting')),
      ),
      h('div', { class: 'actions' }, this.buttons(t, phase)),
    );
    if (focused) this.root.querySelector<HTMLElement>(`[data-action="${focused}"]`)?.focus();
  }

  private buttons(t: Translate, phase: Phase): HTMLElement[] {
    if (isOpen(phase)) {
      const cancel = () => {
        if (this.cancelling) return;
        this.cancelling = true;
        this.draw();
        this.actions.cancel();
      };
      return [h('button', { class: 'secondary', 'data-action': 'cancel-payment', disabled: this.cancelling, onclick: cancel }, t(this.cancelling ? 'cardCancelling' : 'cancel'))];
    }
    if (phase === 'approved') return [];
    return [
      h('button', { class: 'secondary', 'data-action': 'other-method', onclick: () => this.actions.otherMethod() }, t('cardOtherMethod')),
      h('button', { class: 'primary', 'data-action': 'retry-payment', onclick: () => this.actions.retry() }, t('cardRetry')),
    ];
  }
}
