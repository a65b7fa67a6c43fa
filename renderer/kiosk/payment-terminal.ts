import { h } from './dom.js';
import type { Translate } from './i18n/index.js';
import type { PaymentMethod } from './store-settings.js';

/** What the order records about a completed payment; a card sale names its approved payment. */
export interface PaymentOutcome {
  paymentMethod: PaymentMethod | 'card';
  transactionDate: string;
  payment?: string;
  paymentBrand?: string;
}

/**
 * The step of the methods that no terminal drives (cash, mobile payment):
 * it tells the customer where to pay and waits for an explicit confirmation
 * on screen. Card goes to the store's terminal instead (card-step.ts).
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
