import { h } from './dom.js';
import type { Translate } from './i18n/index.js';
import type { PaymentMethod } from './store-settings.js';

/** What the order records about a completed payment. */
export interface PaymentOutcome {
  paymentMethod: PaymentMethod;
  transactionDate: string;
}

/**
 * The payment terminal seam. No terminal is integrated: this step tells the
 * customer where to pay and waits for an explicit confirmation on screen.
 * A terminal integration replaces the confirm button with the terminal's
 * answer and fills `PaymentOutcome` from it (brand, transaction message).
 */
export function paymentTerminalStep(
  t: Translate,
  method: PaymentMethod,
  amount: number,
  onConfirmed: (outcome: PaymentOutcome) => void,
  onCancel: () => void,
): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'terminal', 'aria-labelledby': 'terminal-title' },
    h('h1', { id: 'terminal-title' }, t('terminalTitle', { amount: t.money(amount) })),
    h('p', { class: 'lead' }, t(method === 'cash' ? 'terminalCash' : 'terminalCard')),
    h(
      'div',
      { class: 'actions' },
      h('button', { class: 'secondary', onclick: onCancel }, t('back')),
      h(
        'button',
        { class: 'primary', 'data-action': 'confirm-payment', onclick: () => onConfirmed({ paymentMethod: method, transactionDate: new Date().toISOString() }) },
        t('confirmPaid'),
      ),
    ),
  );
}
