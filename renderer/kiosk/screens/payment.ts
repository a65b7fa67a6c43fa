import { h } from '../dom.js';
import type { MessageKey, Translate } from '../i18n/index.js';
import { helpButtonText } from './help.js';
import type { PaymentMethod } from '../store-settings.js';

const METHOD_TEXT: Record<PaymentMethod, MessageKey> = { cash: 'cash', providerA: 'providerA', providerB: 'providerB' };

/** A method the store takes; `unavailable` says why it cannot be chosen now (it shows greyed, with that reason). */
export interface MethodChoice {
  method: PaymentMethod;
  unavailable?: MessageKey;
}

function methodButton(t: Translate, { method, unavailable }: MethodChoice, onMethod: (m: PaymentMethod) => void): HTMLElement {
  if (!unavailable) return h('button', { class: 'method primary', 'data-method': method, onclick: () => onMethod(method) }, t(METHOD_TEXT[method]));
  // The reason describes the button rather than name it: the method keeps its one-word name.
  const reason = `method-reason-${method}`;
  return h(
    'button',
    { class: 'method primary', 'data-method': method, 'data-unavailable': unavailable, disabled: true, 'aria-describedby': reason },
    h('span', {}, t(METHOD_TEXT[method])),
    h('span', { class: 'method-reason', id: reason, 'aria-hidden': 'true' }, t(unavailable)),
  );
}

export function paymentScreen(t: Translate, total: number, methods: MethodChoice[], onMethod: (m: PaymentMethod) => void, onBack: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'payment', 'aria-labelledby': 'payment-title' },
    h('h1', { id: 'payment-title' }, t('payTitle')),
    h('p', { class: 'total' }, h('span', {}, t('total')), h('strong', {}, t.money(total))),
    methods.length === 0
      ? h('p', { class: 'error', role: 'alert' }, t('noPaymentMethods'))
      : h('div', { class: 'methods' }, methods.map((m) => methodButton(t, m, onMethod))),
    h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onBack }, t('back'))),
  );
}

/**
 * While a paid sale is recorded. It never says the sale is lost: the sale is
 * kept and sent again until the server stores it, and after a failure the
 * customer may ask for help.
 */
export function recordingScreen(t: Translate, state: { resumed: boolean; failure?: { refused: boolean } | undefined }, onHelp: () => void): HTMLElement {
  const { failure } = state;
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'recording', 'aria-busy': 'true', ...(state.resumed ? { 'data-resumed': '' } : {}) },
    h('h1', {}, t(state.resumed ? 'recordingResumed' : 'recording')),
    failure && h('p', { class: 'lead', role: 'status', 'data-retrying': failure.refused ? 'refused' : 'failed' }, t(failure.refused ? 'recordingRefused' : 'recordingRetry')),
    failure && h('div', { class: 'actions' }, h('button', { class: 'secondary', onclick: onHelp }, helpButtonText(t))),
  );
}
