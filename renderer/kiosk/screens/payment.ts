import { h } from '../dom.js';
import type { MessageKey, Translate } from '../i18n/index.js';
import { helpButtonText } from './help.js';
import type { PaymentMethod } from '../store-settings.js';

const METHOD_TEXT: Record<PaymentMethod, MessageKey> = { cash: 'cash', providerA: 'providerA', providerB: 'providerB' };

export function paymentScreen(t: Translate, total: number, methods: PaymentMethod[], onMethod: (m: PaymentMethod) => void, onBack: () => void): HTMLElement {
  return h(
    'section',
    { class: 'screen panel', 'data-screen': 'payment', 'aria-labelledby': 'payment-title' },
    h('h1', { id: 'payment-title' }, t('payTitle')),
    h('p', { class: 'total' }, h('span', {}, t('total')), h('strong', {}, t.money(total))),
    methods.length === 0
      ? h('p', { class: 'error', role: 'alert' }, t('noPaymentMethods'))
      : h('div', { class: 'methods' }, methods.map((m) => h('button', { class: 'method primary', 'data-method': m, onclick: () => onMethod(m) }, t(METHOD_TEXT[m])))),
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
